import Foundation
import TallyEvent
import Locking

/// Everything behind the caller's thread: moves buffered events through `beforeSend` into
/// the disk queue, and decides when to upload. Background tasks hold the pipeline, never
/// the ``Tracker``, so releasing the tracker stops them.
final class Pipeline: Sendable {
    /// How often buffered events are written to disk: the crash-loss window.
    static let persistInterval: Duration = .milliseconds(200)

    let recorder: Recorder
    let queue: DiskQueue
    let uploader: Uploader
    private let statistics: Statistics
    private let beforeSend: (@Sendable (Event) -> Event?)?
    private let now: @Sendable () -> Date
    private let batchSize: Int
    private let uploadInterval: Duration
    /// Keeps concurrent persists (timer, flush, deinit) from reordering events on disk.
    private let persistLock = Locked(())

    init(configuration: Tracker.Configuration, recorder: Recorder, queue: DiskQueue, statistics: Statistics) {
        self.recorder = recorder
        self.queue = queue
        self.statistics = statistics
        uploader = Uploader(configuration: configuration, queue: queue, statistics: statistics)
        beforeSend = configuration.beforeSend
        now = configuration.now
        batchSize = configuration.batchSize
        uploadInterval = configuration.uploadInterval
    }

    /// Writes every buffered event to the disk queue, after super-properties and `beforeSend`.
    func persist() {
        persistLock.withLock { _ in
            let pending = recorder.drain()
            guard !pending.isEmpty else { return }
            let style: Date.ISO8601FormatStyle = .wire()
            var entries: [(line: Data, timestamp: Date)] = []
            entries.reserveCapacity(pending.count)
            for item in pending {
                var event = item.event
                if !item.superProperties.isEmpty {
                    event.properties = item.superProperties.merging(event.properties) { _, own in own }
                }
                if let beforeSend {
                    guard let kept = beforeSend(event) else {
                        statistics.recordDropped(1, .droppedByBeforeSend)
                        continue
                    }
                    event = kept
                }
                entries.append((Data(event.wireJSON(timestampStyle: style)), event.timestamp))
            }
            queue.append(entries, now: now())
        }
    }

    /// Persists, uploads what it can, and reports since the previous report.
    func flush() async -> FlushReport {
        persist()
        queue.synchronize()
        await uploader.flush()
        return statistics.take(pending: queue.count)
    }

    /// The background writer: persists every ``persistInterval`` and wakes the uploader
    /// once a batch is full or the upload interval has passed. Returns when cancelled.
    func runWriter() async {
        let clock = ContinuousClock()
        var lastUpload = clock.now
        while (try? await Task.sleep(for: Self.persistInterval)) != nil {
            persist()
            let pending = queue.count
            if pending >= batchSize || (pending > 0 && clock.now - lastUpload >= uploadInterval) {
                lastUpload = clock.now
                uploader.wake()
            }
        }
    }
}

import Foundation
import Locking
@_spi(Wire) import TallyEvent

/// Everything behind the caller's thread: moves buffered events through `beforeSend` into
/// the disk queue, and decides when to upload. Background tasks hold the pipeline, never
/// the ``Tracker``, so releasing the tracker stops them.
final class Pipeline: Sendable {
    /// How often, in seconds, buffered events are written to disk: the crash-loss window.
    static let persistInterval: TimeInterval = 0.2

    let recorder: Recorder
    let queue: DiskQueue
    let uploader: Uploader
    private let statistics: Statistics
    private let beforeSend: (@Sendable (Event) -> Event?)?
    private let appVersion: String
    private let platform: String
    private let isDebug: Bool
    private let now: @Sendable () -> Date
    private let batchSize: Int
    private let uploadInterval: TimeInterval
    /// Keeps concurrent persists (timer, flush, deinit) from reordering events on disk.
    private let persistLock = Locked(())

    init(configuration: Tracker.Configuration, recorder: Recorder, queue: DiskQueue, statistics: Statistics) {
        self.recorder = recorder
        self.queue = queue
        self.statistics = statistics
        uploader = Uploader(configuration: configuration, queue: queue, statistics: statistics)
        beforeSend = configuration.beforeSend
        appVersion = configuration.appVersion
        platform = configuration.platform
        isDebug = configuration.isDebug
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
            // A session's id as text, made once per session.
            var session: (id: UUID, text: String)?
            for item in pending {
                if session?.id != item.session { session = (item.session, item.session.uuidString.lowercased()) }
                var event = Event(
                    id: item.id, name: item.name, timestamp: item.timestamp, userID: item.userID, sessionID: session?.text,
                    appVersion: appVersion, platform: platform,
                    properties: item.superProperties.isEmpty
                        ? item.properties : item.superProperties.merging(item.properties) { _, own in own },
                    isDebug: isDebug)
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

    /// Deletes every buffered and queued event; the recorder must already be opted out, so
    /// that none follows. Waits for a persist under way, whose events are deleted too.
    func discardAll() {
        persistLock.withLock { _ in
            _ = recorder.drain()
            queue.removeAll()
        }
    }

    /// Persists and wakes the uploader, off the caller's thread: for the app leaving the foreground.
    func uploadSoon() {
        Task.detached(priority: .utility) { [self] in
            persist()
            uploader.wake()
        }
    }

    /// The background writer: persists every ``persistInterval`` and wakes the uploader
    /// once a batch is full or the upload interval has passed. Returns when cancelled.
    ///
    /// Time is counted in the writer's own ticks, not read from a clock: a wall-clock change
    /// cannot stall uploads, and no boot-time API (a required-reason API) is needed.
    func runWriter() async {
        var sinceUpload: TimeInterval = 0
        while (try? await Task.sleep(seconds: Self.persistInterval)) != nil {
            persist()
            sinceUpload += Self.persistInterval
            let pending = queue.count
            if pending >= batchSize || (pending > 0 && sinceUpload >= uploadInterval) {
                sinceUpload = 0
                uploader.wake()
            }
        }
    }
}

import Foundation
import Locking
@_spi(Wire) import TallyEvent

/// The durable event queue: append-only NDJSON segment files plus an ``AckCursor``.
///
/// - Appends go to the active segment, a new file after each restart and whenever the
///   active one reaches the segment size. Restarting on a fresh file means a torn line
///   left by a crash is only ever at the end of a file, where reading skips it.
/// - Records are settled (acknowledged or dropped) oldest first, so the cursor moves
///   forward only; segment files wholly behind it are deleted.
/// - Pending records are also held in memory (bounded by the byte cap), so uploads never
///   read the disk; the disk is read once, when the queue opens.
///
/// All methods are synchronous, thread-safe and short: file work happens under the lock
/// but never on the thread that calls ``Tracker/track(_:_:)``.
final class DiskQueue: Sendable {
    private struct State {
        var records: [QueueRecord] = []
        var bytes = 0
        var nextSequence: UInt64 = 0
        /// Segment files on disk, oldest first.
        var segments: [Int] = []
        /// The segment appends go to; created on the first append.
        var active: Int
        var activeSize: UInt64 = 0
        var handle: FileHandle?
    }

    private let state: Locked<State>
    private let folder: URL
    private let cursorFile: URL
    private let maxBytes: Int
    private let maxAge: TimeInterval
    private let segmentSize: UInt64
    private let statistics: Statistics

    /// Opens the queue stored in `folder`, loading every unacknowledged complete line and
    /// applying the caps as of `now`.
    init(
        folder: URL, cursorFile: URL, maxBytes: Int, maxAge: TimeInterval,
        segmentSize: Int = 512 * 1024, statistics: Statistics, now: Date
    ) throws {
        self.folder = folder
        self.cursorFile = cursorFile
        self.maxBytes = maxBytes
        self.maxAge = maxAge
        self.segmentSize = UInt64(segmentSize)
        self.statistics = statistics

        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let cursor = AckCursor(contentsOf: cursorFile)
        let segments = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .compactMap { $0.hasSuffix(".ndjson") ? Int($0.dropLast(7)) : nil }
            .sorted()
        var state = State(active: (segments.last ?? 0) + 1)
        for segment in segments {
            guard segment >= cursor.segment else {
                try? FileManager.default.removeItem(at: Self.url(of: segment, in: folder))
                continue
            }
            state.segments.append(segment)
            let data = (try? Data(contentsOf: Self.url(of: segment, in: folder))) ?? Data()
            var start = segment == cursor.segment ? Int(clamping: cursor.offset) : 0
            // Only newline-terminated lines count: a trailing partial line is a torn write.
            while start < data.count, let newline = data[start...].firstIndex(of: 0x0A) {
                let line = Data(data[start..<newline])
                start = newline + 1
                guard let timestamp = Self.timestamp(of: line) else { continue }
                state.records.append(
                    QueueRecord(
                        sequence: state.nextSequence, segment: segment, end: UInt64(start), line: line, timestamp: timestamp
                    ))
                state.nextSequence += 1
                state.bytes += line.count
            }
        }
        self.state = Locked(state)
        dropExpired(now: now)
    }

    deinit {
        state.withLock { try? $0.handle?.close() }
    }

    /// The number of events waiting.
    var count: Int { state.withLock { $0.records.count } }

    /// Appends events (wire-format lines and their timestamps) and then enforces the caps.
    ///
    /// If the disk write fails, the events are still queued in memory and uploaded while
    /// the process lives; only their crash-safety is lost.
    func append(_ entries: [(line: Data, timestamp: Date)], now: Date) {
        state.withLock { state in
            var chunk = Data()
            for entry in entries {
                if state.handle == nil || state.activeSize >= segmentSize {
                    write(&chunk, state: &state)
                    openSegment(&state)
                }
                chunk.append(entry.line)
                chunk.append(0x0A)
                state.activeSize += UInt64(entry.line.count + 1)
                state.records.append(
                    QueueRecord(
                        sequence: state.nextSequence, segment: state.active, end: state.activeSize,
                        line: entry.line, timestamp: entry.timestamp
                    ))
                state.nextSequence += 1
                state.bytes += entry.line.count
            }
            write(&chunk, state: &state)
            enforceCaps(&state, now: now)
        }
    }

    /// Drops events older than the age cap (and any excess over the byte cap).
    func dropExpired(now: Date) {
        state.withLock { enforceCaps(&$0, now: now) }
    }

    /// The oldest `limit` events, still queued until ``acknowledge(_:)``.
    func peek(limit: Int) -> [QueueRecord] {
        state.withLock { Array($0.records.prefix(limit)) }
    }

    /// Settles `batch` (a result of ``peek(limit:)``) and everything older, moving the cursor past it.
    ///
    /// - Returns: How many of the batch's leading records had already been dropped by a cap
    ///   while the batch was in flight; the caller must not count those again.
    @discardableResult
    func acknowledge(_ batch: ArraySlice<QueueRecord>) -> Int {
        state.withLock { state in
            guard let last = batch.last else { return 0 }
            let firstQueued = state.records.first?.sequence ?? .max
            let settled = state.records.prefix { $0.sequence <= last.sequence }.count
            settle(settled, of: &state)
            return batch.prefix { $0.sequence < firstQueued }.count
        }
    }

    /// Deletes every queued event, from memory and from disk, without counting them as dropped.
    ///
    /// An upload in flight may still deliver its batch; acknowledging it afterwards is harmless.
    func removeAll() {
        state.withLock { state in
            try? state.handle?.close()
            state.handle = nil
            for segment in state.segments {
                try? FileManager.default.removeItem(at: Self.url(of: segment, in: folder))
            }
            try? FileManager.default.removeItem(at: cursorFile)
            state.segments = []
            state.records = []
            state.bytes = 0
        }
    }

    /// Forces written events to stable storage (they already survive a crash of the process).
    func synchronize() {
        state.withLock { try? $0.handle?.synchronize() }
    }

    // MARK: - Private

    private static func url(of segment: Int, in folder: URL) -> URL {
        folder.appendingPathComponent("\(segment).ndjson")
    }

    private static func timestamp(of line: Data) -> Date? {
        guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
            let timestamp = object["timestamp"] as? String
        else { return nil }
        return Date(wireTimestamp: timestamp)
    }

    private func write(_ chunk: inout Data, state: inout State) {
        guard !chunk.isEmpty else { return }
        do {
            try state.handle?.write(contentsOf: chunk)
        } catch {
            // Offsets in this file can no longer be trusted; continue in a fresh one.
            state.activeSize = segmentSize
        }
        chunk.removeAll(keepingCapacity: true)
    }

    private func openSegment(_ state: inout State) {
        if let handle = state.handle {
            try? handle.close()
            state.active += 1
        }
        let url = Self.url(of: state.active, in: folder)
        state.handle =
            FileManager.default.createFile(atPath: url.path, contents: nil)
            ? try? FileHandle(forWritingTo: url) : nil
        state.activeSize = 0
        state.segments.append(state.active)
        deleteSettledSegments(&state)
    }

    private func enforceCaps(_ state: inout State, now: Date) {
        let cutoff = now.addingTimeInterval(-maxAge)
        let expired = state.records.prefix { $0.timestamp < cutoff }.count
        settle(expired, of: &state)
        statistics.recordDropped(expired, .tooOld)

        var excess = 0
        var bytes = state.bytes
        while bytes > maxBytes, excess < state.records.count {
            bytes -= state.records[excess].line.count
            excess += 1
        }
        settle(excess, of: &state)
        statistics.recordDropped(excess, .cappedBytes)
    }

    /// Removes the `count` oldest records and persists the cursor past them.
    private func settle(_ count: Int, of state: inout State) {
        guard count > 0 else { return }
        let last = state.records[count - 1]
        state.bytes -= state.records[..<count].reduce(0) { $0 + $1.line.count }
        state.records.removeFirst(count)
        try? AckCursor(segment: last.segment, offset: last.end).write(to: cursorFile)
        deleteSettledSegments(&state)
    }

    private func deleteSettledSegments(_ state: inout State) {
        let firstLive = state.records.first?.segment ?? state.active
        for segment in state.segments where segment < firstLive {
            try? FileManager.default.removeItem(at: Self.url(of: segment, in: folder))
        }
        state.segments.removeAll { $0 < firstLive }
    }
}

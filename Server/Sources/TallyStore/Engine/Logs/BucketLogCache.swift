import Dispatch
import Locking

/// The bucket logs read lately, decoded once and kept in memory between reads, up to
/// ``capacity`` bytes, with what is derived from them: what funnels, paths and filtered
/// metrics read most.
///
/// A bucket's revision, the greatest of its `bucket_log` row's and its tails' (see
/// ``BucketLogTails``), changes at every write and is never reused (see ``Schema``), so a read
/// first reads the revisions of its range's buckets in its own snapshot, takes the logs of
/// the same revision from here, and fetches only the others. Read from
/// SQLite every time, a 30-day funnel of the 20,000-user fixture spent 30 of its 90 ms
/// copying the 27 MB of its buckets' blobs out of the database.
///
/// Past ``capacity``, the least recently used logs are dropped until a quarter is free; a
/// read keeps the logs it was given alive until it ends.
final class BucketLogCache: Sendable {
    /// One stored log: its revision, and its bytes, which it owns, read in place.
    final class Log: @unchecked Sendable {
        // Unchecked: immutable after `init`; `view` reads `storage`, which lives as long as it.
        /// The row's revision.
        let revision: Int64
        /// The log, read in place.
        let view: BucketLog.View
        private let storage: UnsafeMutableRawBufferPointer

        /// A copy of the blob `bytes` of a row of `revision`.
        ///
        /// - Throws: ``DamagedRollup`` if it does not decode.
        init(revision: Int64, bytes: UnsafeRawBufferPointer) throws {
            storage = .allocate(byteCount: max(bytes.count, 1), alignment: 8)
            storage.copyMemory(from: bytes)
            self.revision = revision
            do {
                view = try BucketLog.View(UnsafeRawBufferPointer(rebasing: storage[0..<bytes.count]))
            } catch {
                storage.deallocate()
                throw error
            }
        }

        deinit { storage.deallocate() }

        /// What it takes in memory, roughly.
        var size: Int { storage.count + 64 * (view.sections.count + view.keys.count + view.screens.count) + 8 * view.sessions.count + 256 }
    }

    private struct Key: Hashable {
        var app: Int64
        var bucket: Int64
    }

    /// A derived log: a day's ``DayLog`` of a name, or its ``DaySessions`` (`name` `nil`).
    private struct DayKey: Hashable {
        var app: Int64
        var day: Int64
        var name: Int64?
    }

    private struct State {
        var logs: [Key: (log: Log, lastUse: UInt64)] = [:]
        var days: [DayKey: (log: any DerivedDayLog, lastUse: UInt64)] = [:]
        var size = 0
        var clock: UInt64 = 0

        /// Drops the least recently used logs and derived logs while more than `capacity`
        /// bytes are kept, until a quarter is free.
        mutating func evict(capacity: Int) {
            guard size > capacity else { return }
            var byUse = logs.map { (key: Optional($0.key), day: DayKey?.none, lastUse: $0.value.lastUse, size: $0.value.log.size) }
            byUse += days.map { (key: nil, day: $0.key, lastUse: $0.value.lastUse, size: $0.value.log.size) }
            byUse.sort { $0.lastUse < $1.lastUse }
            for entry in byUse where size > capacity / 4 * 3 {
                if let key = entry.key { logs[key] = nil }
                if let day = entry.day { days[day] = nil }
                size -= entry.size
            }
        }
    }

    /// The most bytes kept.
    let capacity: Int
    private let state = Locked(State())

    /// A cache keeping up to `capacity` bytes (512 MiB unless given: the bucket logs of 60
    /// days of the 20,000-user fixture, 10.6M events, take 84 MB).
    init(capacity: Int = 512 << 20) {
        self.capacity = max(capacity, 0)
    }

    /// The bytes kept now.
    var size: Int { state.withLock(\.size) }

    /// The logs of `app` kept with the given revisions: for each row, its log, or `nil` if
    /// it must be fetched.
    func logs(app: AppID, _ rows: [(bucket: Int64, revision: Int64)]) -> [Log?] {
        state.withLock { state in
            state.clock += 1
            return rows.map { row in
                let key = Key(app: app.rawValue, bucket: row.bucket)
                guard let kept = state.logs[key], kept.log.revision == row.revision else { return nil }
                state.logs[key] = (kept.log, state.clock)
                return kept.log
            }
        }
    }

    /// The rows' logs: `logs` (from ``logs(app:_:)``) with their gaps filled from `fetched`,
    /// which it keeps (see ``keep(app:_:)``).
    func completing(
        _ logs: [Log?], of rows: [(bucket: Int64, revision: Int64)], app: AppID, with fetched: [(bucket: Int64, log: Log)]
    ) -> [(bucket: Int64, log: Log)] {
        keep(app: app, fetched)
        let fetched = Dictionary(fetched) { _, last in last }
        return zip(rows, logs).compactMap { row, log in (log ?? fetched[row.bucket]).map { (row.bucket, $0) } }
    }

    /// Keeps `logs` of `app`, replacing older revisions, then drops the least recently used
    /// logs while more than ``capacity`` bytes are kept.
    func keep(app: AppID, _ logs: [(bucket: Int64, log: Log)]) {
        guard !logs.isEmpty else { return }
        state.withLock { state in
            state.clock += 1
            for (bucket, log) in logs {
                let key = Key(app: app.rawValue, bucket: bucket)
                if let old = state.logs[key] {
                    guard old.log.revision < log.revision else { continue }
                    state.size -= old.log.size
                }
                state.logs[key] = (log, state.clock)
                state.size += log.size
            }
            state.evict(capacity: capacity)
        }
    }

    /// `rows` (bucket and revision, in bucket order) grouped by UTC day: what ``dayLogs(app:names:days:logs:)``
    /// takes.
    static func days(of rows: [(bucket: Int64, revision: Int64)]) -> [(day: Int64, revisions: [Int64])] {
        var days: [(day: Int64, revisions: [Int64])] = []
        for (bucket, revision) in rows {
            let day = Bucket.day(of: bucket)
            if days.last?.day == day { days[days.count - 1].revisions.append(revision) } else { days.append((day, [revision])) }
        }
        return days
    }

    /// The day logs of `app` for each of `names` (`label` ids) over each of `days`, each day
    /// given with the revisions of its `bucket_log` rows in bucket order: a ``DayLog`` per day
    /// and name, in that order. Those kept for the same revisions are reused; the others are
    /// made from the day's bucket logs, which `logs` gives, on two threads, and kept.
    ///
    /// - Throws: ``DamagedRollup`` if a log's runs do not decode; what `logs` throws.
    func dayLogs(
        app: AppID, names: [Int64], days: [(day: Int64, revisions: [Int64])],
        logs: (_ day: Int64) throws -> [(bucket: Int64, log: Log)]
    ) throws -> [DayLog] {
        let wanted = days.flatMap { day in names.map { (key: DayKey(app: app.rawValue, day: day.day, name: $0), revisions: day.revisions) } }
        return try derived(wanted, logs: logs) { key, logs throws(DamagedRollup) in try DayLog(name: key.name ?? 0, day: key.day, logs: logs) }
    }

    /// The ``DaySessions`` of `app` for each of `days`, given as for ``dayLogs(app:names:days:logs:)``,
    /// kept and made as day logs are.
    ///
    /// - Throws: ``DamagedRollup`` if a log's runs do not decode; what `logs` throws.
    func daySessions(
        app: AppID, days: [(day: Int64, revisions: [Int64])], logs: (_ day: Int64) throws -> [(bucket: Int64, log: Log)]
    ) throws -> [DaySessions] {
        let wanted = days.map { (key: DayKey(app: app.rawValue, day: $0.day, name: nil), revisions: $0.revisions) }
        return try derived(wanted, logs: logs) { key, logs throws(DamagedRollup) in try DaySessions(day: key.day, logs: logs) }
    }

    /// The derived logs `wanted`: those kept for the same revisions, and the others made by
    /// `make` from their day's bucket logs, which `logs` gives, on two threads, and kept.
    private func derived<Derived: DerivedDayLog>(
        _ wanted: [(key: DayKey, revisions: [Int64])], logs: (_ day: Int64) throws -> [(bucket: Int64, log: Log)],
        make: @Sendable (DayKey, [(bucket: Int64, log: Log)]) throws(DamagedRollup) -> Derived
    ) throws -> [Derived] {
        var found = state.withLock { state in
            state.clock += 1
            return wanted.map { wanted -> Derived? in
                guard let kept = state.days[wanted.key], let log = kept.log as? Derived, log.revisions == wanted.revisions else { return nil }
                state.days[wanted.key] = (log, state.clock)
                return log
            }
        }
        let missing = found.indices.filter { found[$0] == nil }
        guard !missing.isEmpty else { return found.map { $0! } }
        var fetched: [Int64: [(bucket: Int64, log: Log)]] = [:]
        for index in missing where fetched[wanted[index].key.day] == nil { fetched[wanted[index].key.day] = try logs(wanted[index].key.day) }
        let dayLogs = fetched
        let made = Locked([Int: Derived]())
        let failure = Locked<DamagedRollup?>(nil)
        DispatchQueue.concurrentPerform(iterations: min(2, missing.count)) { thread in
            for index in stride(from: thread, to: missing.count, by: 2) {
                let key = wanted[missing[index]].key
                do throws(DamagedRollup) {
                    let log = try make(key, dayLogs[key.day] ?? [])
                    made.withLock { $0[missing[index]] = log }
                } catch {
                    failure.withLock { $0 = error }
                    return
                }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        let new = made.withLock { $0 }
        state.withLock { state in
            state.clock += 1
            for (index, log) in new {
                let key = wanted[index].key
                if let old = state.days[key] { state.size -= old.log.size }
                state.days[key] = (log, state.clock)
                state.size += log.size
            }
            state.evict(capacity: capacity)
        }
        for (index, log) in new { found[index] = log }
        return found.map { $0! }
    }
}

/// What ``BucketLogCache`` derives from a UTC day's bucket logs and keeps beside them while
/// their revisions stay the same: a ``DayLog`` or ``DaySessions``.
protocol DerivedDayLog: AnyObject, Sendable {
    /// The revisions of the day's buckets it was made from, in bucket order.
    var revisions: [Int64] { get }
    /// What it takes in memory, roughly.
    var size: Int { get }
}

extension DayLog: DerivedDayLog {}
extension DaySessions: DerivedDayLog {}

extension [(bucket: Int64, revision: Int64)] {
    /// The ranges of buckets covering exactly the rows whose `logs` entry is `nil`: what a read
    /// fetches, each range in one statement.
    func missing(_ logs: [BucketLogCache.Log?]) -> [Range<Int64>] {
        var ranges: [Range<Int64>] = []
        var start: Int64?
        for (index, row) in enumerated() {
            if logs[index] == nil {
                if start == nil { start = row.bucket }
            } else if let first = start {
                ranges.append(first..<self[index - 1].bucket + 1)
                start = nil
            }
        }
        if let first = start, let last = self.last { ranges.append(first..<last.bucket + 1) }
        return ranges
    }
}

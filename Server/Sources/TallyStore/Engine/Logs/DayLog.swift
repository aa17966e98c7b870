/// One name's events over one UTC day, regrouped from the ``BucketLog``s of its 96 buckets:
/// users ascending, each user's events in time order. What a funnel reads.
///
/// A funnel over the bucket logs reads one section per name and bucket (11,523 for 30 days
/// and 4 steps), each sorted by user on its own, and must first bring every user's events
/// together: 22 ms for a 30-day funnel of the 20,000-user fixture, of which reading the
/// sections alone took 4.9 ms and gathering the events by user 10. Day logs are 124 such
/// sections for that funnel, and since each is sorted by user, a block of users is one
/// contiguous slice of each.
///
/// A day log is derived, never stored: ``BucketLogCache`` keeps it beside the bucket logs
/// while the revisions of its day's buckets stay the same (a revision is never reused, so the
/// same revisions are the same events).
final class DayLog: @unchecked Sendable {
    // Unchecked: immutable after `init`; the buffers are its own, freed in `deinit`.
    /// The revisions of the day's buckets it was made from, in bucket order.
    let revisions: [Int64]
    /// The users with an event, ascending.
    let users: UnsafeMutableBufferPointer<UInt32>
    /// Where each user's events end in the columns.
    let ends: UnsafeMutableBufferPointer<UInt32>
    /// Each event's millisecond from the day's start, in user order then time order; its
    /// memory holds one more, so that a funnel may read past the last (see ``FunnelCounter``).
    let times: UnsafeMutableBufferPointer<UInt32>
    /// Each event's index in ``keys`` and in ``screens``.
    let keyIndexes: UnsafeMutableBufferPointer<UInt32>
    let screenIndexes: UnsafeMutableBufferPointer<UInt32>
    /// The distinct segment keys and screens (`label` ids, 0 for none) of its events.
    let keys: [Int64]
    let screens: [Int64]

    /// The events named `name` (a `label` id) in `logs`, the bucket logs of the UTC day `day`
    /// in bucket order.
    ///
    /// - Throws: ``DamagedRollup`` if a log's runs do not decode.
    init(name: Int64, day: Int64, logs: [(bucket: Int64, log: BucketLogCache.Log)]) throws(DamagedRollup) {
        revisions = logs.map(\.log.revision)
        // Every run of the name, as its user and its place in `runs`, which follows the
        // buckets: sorted, each user's runs come together in time order.
        var order: [UInt64] = []
        var runs: [(log: Int, events: Range<Int>)] = []
        for (index, (_, log)) in logs.enumerated() {
            guard let section = log.view.section(named: name) else { continue }
            var sectionRuns = log.view.runs(of: section)
            // Every user of a day log has an event (a funnel copies at least one a user).
            while let (user, events) = try sectionRuns.next() {
                guard !events.isEmpty else { continue }
                order.append(UInt64(user) << 32 | UInt64(runs.count))
                runs.append((index, events))
            }
        }
        order.sort()
        // The day's dictionaries, and per log the day's index of each entry of its own.
        var (keys, screens) = (DayDictionary(), DayDictionary())
        let keyMaps = logs.map { $0.log.view.keys.map { keys.index(of: $0) } }
        let screenMaps = logs.map { $0.log.view.screens.map { screens.index(of: $0) } }
        (self.keys, self.screens) = (keys.values, screens.values)
        let count = runs.reduce(0) { $0 + $1.events.count }
        var userCount = 0
        var previous: UInt64?
        for entry in order where entry >> 32 != previous {
            userCount += 1
            previous = entry >> 32
        }
        (users, ends) = (.allocate(capacity: userCount), .allocate(capacity: userCount))
        times = UnsafeMutableBufferPointer(start: .allocate(capacity: count + 1), count: count)
        times.baseAddress?[count] = 0
        (keyIndexes, screenIndexes) = (.allocate(capacity: count), .allocate(capacity: count))
        let dayStart = day * Bucket.perDay
        var (event, user) = (0, -1)
        for entry in order {
            let (log, events) = runs[Int(entry & 0xFFFF_FFFF)]
            if user < 0 || UInt64(users[user]) != entry >> 32 {
                if user >= 0 { ends[user] = UInt32(event) }
                user += 1
                users[user] = UInt32(entry >> 32)
            }
            let columns = logs[log].log.view.columns
            let start = UInt32((logs[log].bucket - dayStart) * Bucket.milliseconds)
            for index in events {
                times[event] = start + columns.offset(at: index)
                keyIndexes[event] = keyMaps[log][columns.keyIndex(at: index)]
                screenIndexes[event] = screenMaps[log][columns.screenIndex(at: index)]
                event += 1
            }
        }
        if user >= 0 { ends[user] = UInt32(event) }
    }

    deinit {
        for buffer in [users, ends, times, keyIndexes, screenIndexes] { buffer.deallocate() }
    }

    /// What it takes in memory, roughly.
    var size: Int { 8 * users.count + 12 * times.count + 8 * (keys.count + screens.count + revisions.count) + 256 }
}

extension DayLog {
    #if DEBUG
        /// Traps unless the columns hold what a funnel relies on: users strictly ascending,
        /// each with at least one event, the ends rising to the last event, each user's times
        /// ascending within the day, and every index within its dictionary. Debug and test
        /// builds only (see ``UserSet/_checkInvariants()``).
        func _checkInvariants() {
            precondition(users.count == ends.count, "\(users.count) users with \(ends.count) ends")
            precondition(ends.last.map { Int($0) == times.count } ?? times.isEmpty, "the last end is not the last event")
            var start = 0
            for user in users.indices {
                precondition(user == 0 || users[user - 1] < users[user], "users out of order")
                let end = Int(ends[user])
                precondition(end > start, "a user without events")
                for event in start..<end {
                    precondition(Int64(times[event]) < Bucket.perDay * Bucket.milliseconds, "a time past the day")
                    precondition(event == start || times[event - 1] <= times[event], "a user's events out of time order")
                    precondition(Int(keyIndexes[event]) < keys.count && Int(screenIndexes[event]) < screens.count, "an index past its dictionary")
                }
                start = end
            }
        }
    #else
        @inline(__always) func _checkInvariants() {}
    #endif
}

/// One UTC day's events that belong to a session, regrouped from the ``BucketLog``s of its 96
/// buckets by session: sessions ascending by user then ``SessionHash``, each session's events
/// in time order. What paths read.
///
/// The bucket logs group events by name, then user: a session's events are spread over every
/// name's section of every bucket it spans. A path needs them side by side, in order.
///
/// Derived, never stored: ``BucketLogCache`` keeps it while the revisions of its day's buckets
/// stay the same, as it keeps ``DayLog``s.
final class DaySessions: @unchecked Sendable {
    // Unchecked: immutable after `init`; the buffers are its own, freed in `deinit`, plain
    // memory that ``PathCounter`` reads in place (see `PathCounter.Day`).
    /// The revisions of the day's buckets it was made from, in bucket order.
    let revisions: [Int64]
    /// Each session's user and ``SessionHash``, ascending.
    let users: UnsafeMutableBufferPointer<UInt32>
    let hashes: UnsafeMutableBufferPointer<UInt64>
    /// Where each session's events end in the columns.
    let ends: UnsafeMutableBufferPointer<UInt32>
    /// Per session, bit `i % 64` set for each index `i` in ``names`` (``screens``) of its
    /// events: a path reads only the sessions whose mask has its start's bit.
    let nameMasks: UnsafeMutableBufferPointer<UInt64>
    let screenMasks: UnsafeMutableBufferPointer<UInt64>
    /// Each event's millisecond from the day's start; within a millisecond, events are in
    /// the order of their names' and screens' `label` ids.
    let times: UnsafeMutableBufferPointer<UInt32>
    /// Each event's index in ``names``, ``screens`` and ``keys``.
    let nameIndexes: UnsafeMutableBufferPointer<UInt32>
    let screenIndexes: UnsafeMutableBufferPointer<UInt32>
    let keyIndexes: UnsafeMutableBufferPointer<UInt32>
    /// The distinct names, screens (`label` ids, 0 for none) and segment keys of its events.
    let names: [Int64]
    let screens: [Int64]
    let keys: [Int64]

    /// The events with a session in `logs`, the bucket logs of the UTC day `day` in bucket
    /// order.
    ///
    /// - Throws: ``DamagedRollup`` if a log's runs do not decode.
    init(day: Int64, logs: [(bucket: Int64, log: BucketLogCache.Log)]) throws(DamagedRollup) {
        revisions = logs.map(\.log.revision)
        var (names, screens, keys) = (DayDictionary(), DayDictionary(), DayDictionary())
        struct Event {
            var user: UInt32
            var hash: UInt64
            var time: UInt32
            var name: UInt32
            var screen: UInt32
            var key: UInt32
        }
        var events: [Event] = []
        events.reserveCapacity(logs.reduce(0) { $0 + $1.log.view.count })
        let dayStart = day * Bucket.perDay
        for (bucket, log) in logs {
            let view = log.view
            let (screenMap, keyMap) = (view.screens.map { screens.index(of: $0) }, view.keys.map { keys.index(of: $0) })
            let sessions = view.sessions
            let start = UInt32((bucket - dayStart) * Bucket.milliseconds)
            for section in view.sections {
                let name = names.index(of: section.name)
                var runs = view.runs(of: section)
                while let (user, indexes) = try runs.next() {
                    for index in indexes {
                        let hash = sessions[view.sessionIndex(at: index)]
                        guard hash != 0 else { continue }
                        events.append(
                            Event(
                                user: user, hash: hash, time: start + view.offset(at: index), name: name,
                                screen: screenMap[view.screenIndex(at: index)], key: keyMap[view.keyIndex(at: index)]))
                    }
                }
            }
        }
        (self.names, self.screens, self.keys) = (names.values, screens.values, keys.values)
        // Ties of time are ordered by label id here; a path orders them by text (``PathCounter``).
        let (nameLabels, screenLabels) = (self.names, self.screens)
        // Field by field, not as one tuple (see ``BucketLog/Entry``).
        events.sort { a, b in
            if a.user != b.user { return a.user < b.user }
            if a.hash != b.hash { return a.hash < b.hash }
            if a.time != b.time { return a.time < b.time }
            let (aName, bName) = (nameLabels[Int(a.name)], nameLabels[Int(b.name)])
            if aName != bName { return aName < bName }
            return screenLabels[Int(a.screen)] < screenLabels[Int(b.screen)]
        }
        var (users, hashes, ends) = ([UInt32](), [UInt64](), [UInt32]())
        var (nameMasks, screenMasks) = ([UInt64](), [UInt64]())
        for (index, event) in events.enumerated() {
            if users.last != event.user || hashes.last != event.hash {
                if index > 0 { ends.append(UInt32(index)) }
                users.append(event.user)
                hashes.append(event.hash)
                nameMasks.append(0)
                screenMasks.append(0)
            }
            nameMasks[nameMasks.count - 1] |= 1 << (event.name & 63)
            screenMasks[screenMasks.count - 1] |= 1 << (event.screen & 63)
        }
        if !events.isEmpty { ends.append(UInt32(events.count)) }
        func buffer<Value>(_ values: some Collection<Value>) -> UnsafeMutableBufferPointer<Value> {
            let buffer = UnsafeMutableBufferPointer<Value>.allocate(capacity: values.count)
            _ = buffer.initialize(from: values)
            return buffer
        }
        (self.users, self.hashes, self.ends) = (buffer(users), buffer(hashes), buffer(ends))
        (self.nameMasks, self.screenMasks) = (buffer(nameMasks), buffer(screenMasks))
        times = buffer(events.lazy.map(\.time))
        nameIndexes = buffer(events.lazy.map(\.name))
        screenIndexes = buffer(events.lazy.map(\.screen))
        keyIndexes = buffer(events.lazy.map(\.key))
    }

    deinit {
        users.deallocate()
        for buffer in [hashes, nameMasks, screenMasks] { buffer.deallocate() }
        for buffer in [ends, times, nameIndexes, screenIndexes, keyIndexes] { buffer.deallocate() }
    }

    /// What it takes in memory, roughly.
    var size: Int { 16 * times.count + 32 * users.count + 8 * (names.count + screens.count + keys.count + revisions.count) + 256 }
}

extension DaySessions {
    #if DEBUG
        /// Traps unless the columns hold what paths rely on: sessions strictly ascending by
        /// user then hash, each with at least one event, the ends rising to the last event,
        /// each session's times ascending within the day, every index within its dictionary,
        /// and each session's masks holding the bits of its names and screens. Debug and test
        /// builds only (see ``UserSet/_checkInvariants()``).
        func _checkInvariants() {
            let sessions = users.count
            precondition([hashes.count, ends.count, nameMasks.count, screenMasks.count].allSatisfy { $0 == sessions }, "columns of unequal length")
            precondition(ends.last.map { Int($0) == times.count } ?? times.isEmpty, "the last end is not the last event")
            var start = 0
            for session in 0..<sessions {
                if session > 0 {
                    let (previous, this) = ((users[session - 1], hashes[session - 1]), (users[session], hashes[session]))
                    precondition(previous.0 < this.0 || (previous.0 == this.0 && previous.1 < this.1), "sessions out of order")
                }
                let end = Int(ends[session])
                precondition(end > start, "a session without events")
                for event in start..<end {
                    precondition(Int64(times[event]) < Bucket.perDay * Bucket.milliseconds, "a time past the day")
                    precondition(event == start || times[event - 1] <= times[event], "a session's events out of time order")
                    let (name, screen) = (Int(nameIndexes[event]), Int(screenIndexes[event]))
                    precondition(name < names.count && screen < screens.count && Int(keyIndexes[event]) < keys.count, "an index past its dictionary")
                    precondition(nameMasks[session] & 1 << (name % 64) != 0, "a name missing from its session's mask")
                    precondition(screenMasks[session] & 1 << (screen % 64) != 0, "a screen missing from its session's mask")
                }
                start = end
            }
        }
    #else
        @inline(__always) func _checkInvariants() {}
    #endif
}

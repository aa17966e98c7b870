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
        events.sort {
            ($0.user, $0.hash, $0.time, nameLabels[Int($0.name)], screenLabels[Int($0.screen)])
                < ($1.user, $1.hash, $1.time, nameLabels[Int($1.name)], screenLabels[Int($1.screen)])
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

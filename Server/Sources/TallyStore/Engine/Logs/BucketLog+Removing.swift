extension BucketLog {
    /// The events of `user` in the encoded log `bytes`, found from the runs of its sections:
    /// only the user's events are decoded.
    ///
    /// - Throws: ``DamagedRollup`` if `bytes` is not a log.
    static func events(of user: UInt32, in bytes: UnsafeRawBufferPointer) throws -> [Entry] {
        let view = try View(bytes)
        var found: [Entry] = []
        for section in view.sections {
            var iterator = view.runs(of: section)
            while let run = try iterator.next() {
                guard run.user >= user else { continue }
                if run.user == user { found += run.events.map { view.entry(at: $0, user: user, name: section.name) } }
                break
            }
        }
        return found
    }

    /// An encoded log without the events of `users`, written straight from the encoded
    /// `bytes`; `nil` when the log has none of theirs.
    ///
    /// The bytes are those ``encoded`` writes for the events left: sections and runs without
    /// the users', dictionaries without the values only their events had (a screen left in a
    /// dictionary would be counted, as 0, by a scan), index columns remapped. No entry is made,
    /// sorted or searched for, as decoding and encoding a busy bucket's log would.
    ///
    /// - Throws: ``DamagedRollup`` if `bytes` is not a log.
    static func removing(_ users: Set<UInt32>, from bytes: UnsafeRawBufferPointer) throws -> [UInt8]? {
        let view = try View(bytes)
        var isRemoved = [Bool](repeating: false, count: view.count)
        var anyRemoved = false
        var sections: [SectionRuns] = []
        for section in view.sections {
            var runs: [(user: UInt32, count: Int)] = []
            var events = 0
            var iterator = view.runs(of: section)
            while let run = try iterator.next() {
                guard users.contains(run.user) else {
                    runs.append((run.user, run.events.count))
                    events += run.events.count
                    continue
                }
                for index in run.events { isRemoved[index] = true }
                anyRemoved = true
            }
            if events > 0 { sections.append((section.name, events, runs)) }
        }
        guard anyRemoved else { return nil }
        let kept = (0..<view.count).filter { !isRemoved[$0] }
        /// The values of a dictionary that kept events use, still ascending, and each old
        /// index's new one.
        func compacted<Value>(_ values: [Value], _ index: (Int) -> Int) -> (values: [Value], map: [Int]) {
            var map = [Int](repeating: -1, count: values.count)
            for event in kept { map[index(event)] = 0 }
            var used: [Value] = []
            for (old, value) in values.enumerated() where map[old] == 0 {
                map[old] = used.count
                used.append(value)
            }
            return (used, map)
        }
        let keys = compacted(view.keys, view.keyIndex(at:))
        let screens = compacted(view.screens, view.screenIndex(at:))
        let sessions = compacted(view.sessions, view.sessionIndex(at:))
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        for dictionary in [keys.values, screens.values] {
            Varint.append(UInt64(dictionary.count), to: &output)
            for value in dictionary { Varint.append(UInt64(value), to: &output) }
        }
        Varint.append(UInt64(sessions.values.count), to: &output)
        for session in sessions.values {
            for byte in 0..<8 { output.append(UInt8(truncatingIfNeeded: session >> (8 * byte))) }
        }
        append(sections, to: &output)
        for (map, count, index) in [
            (keys.map, keys.values.count, view.keyIndex(at:)), (screens.map, screens.values.count, view.screenIndex(at:)),
            (sessions.map, sessions.values.count, view.sessionIndex(at:)),
        ] as [([Int], Int, (Int) -> Int)] {
            let width = View.width(forCount: count)
            for event in kept {
                let new = map[index(event)]
                for byte in 0..<width { output.append(UInt8(truncatingIfNeeded: UInt32(new) >> (8 * byte))) }
            }
        }
        for event in kept {
            let offset = view.offset(at: event)
            for byte in 0..<3 { output.append(UInt8(truncatingIfNeeded: offset >> (8 * byte))) }
        }
        return output
    }
}

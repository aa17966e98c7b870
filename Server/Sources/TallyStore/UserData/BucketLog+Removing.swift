extension BucketLog {
    /// An encoded log without `user`'s events, written straight from the encoded `bytes`, and
    /// the events it took out; `nil` when the log has none of the user's.
    ///
    /// The bytes are those ``encoded`` writes for the events left: sections and runs without
    /// the user's, dictionaries without the values only the user's events had (a screen left
    /// in a dictionary would be counted, as 0, by a scan), index columns remapped. No entry is
    /// made, sorted or searched for, as decoding and encoding a busy bucket's log would.
    ///
    /// - Throws: ``DamagedRollup`` if `bytes` is not a log.
    static func removing(_ user: UInt32, from bytes: UnsafeRawBufferPointer) throws -> (bytes: [UInt8], removed: [Entry])? {
        let view = try View(bytes)
        var removed: [Entry] = []
        var isRemoved = [Bool](repeating: false, count: view.count)
        var sections: [SectionRuns] = []
        for section in view.sections {
            var runs: [(user: UInt32, count: Int)] = []
            var events = 0
            var iterator = view.runs(of: section)
            while let run = try iterator.next() {
                guard run.user == user else {
                    runs.append((run.user, run.events.count))
                    events += run.events.count
                    continue
                }
                for index in run.events {
                    isRemoved[index] = true
                    removed.append(
                        Entry(
                            user: user, offset: view.offset(at: index), name: section.name, key: view.keys[view.keyIndex(at: index)],
                            screen: view.screens[view.screenIndex(at: index)], session: view.sessions[view.sessionIndex(at: index)]))
                }
            }
            if events > 0 { sections.append((section.name, events, runs)) }
        }
        guard !removed.isEmpty else { return nil }
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
        return (output, removed)
    }
}

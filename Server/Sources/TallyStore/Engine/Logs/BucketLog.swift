/// One bucket's events as the engine keeps them, in the `events` blob of `bucket_log`: what
/// segments and funnels read, so that they stay exact without raw events.
///
/// Each event is its user, its millisecond from the bucket's start, its name, its segment key
/// (``SegmentDelta``), its screen (a `screen_view`'s `screen`, else 0) and its session (the
/// ``SessionHash`` of its `session_id`, else 0). Events are grouped
/// by name, then sorted by user, then time: a funnel reads only its steps' names, and a day's
/// metric set counts a user's events of a name from the length of their run.
///
/// The blob is column-wise: a header of ``Varint``s (the bucket's distinct keys and screens,
/// each a dictionary; the distinct sessions, a count then 8 bytes each; then per name its
/// `label` id, event count, run count, the runs' length in bytes and the runs — per user
/// ascending, the gap from the previous user and the user's event count), then one column per
/// field over all events: dictionary indexes of the keys, screens and sessions (1, 2 or 4
/// bytes each, as the dictionary's size needs) and the milliseconds in 3 bytes, little-endian.
/// About 6 bytes an event and 8 a session. With the fields as varints event by event, a funnel over 30 days of the
/// 20,000-user fixture decoded every event of every name and took 144 ms; with the events in
/// user order and names in a column, it still tested every event's name (107 ms).
struct BucketLog: Equatable {
    /// One event.
    struct Entry: Comparable {
        var user: UInt32
        /// Milliseconds from the bucket's start, below ``Bucket/milliseconds``.
        var offset: UInt32
        /// The name's `label` id.
        var name: Int64
        /// The segment key's number in its app.
        var key: Int64
        /// The `screen` property's `label` id on a `screen_view`, else 0.
        var screen: Int64
        /// The ``SessionHash`` of the event's `session_id`, 0 without one.
        var session: UInt64 = 0

        /// Field by field rather than as one tuple: unoptimized, the standard library's tuple
        /// comparison looks the tuple's type up in the runtime's locked metadata cache on each
        /// call, and that was 42% of a path stress test's time in the ThreadSanitizer build.
        static func < (a: Entry, b: Entry) -> Bool {
            if a.name != b.name { return a.name < b.name }
            if a.user != b.user { return a.user < b.user }
            if a.offset != b.offset { return a.offset < b.offset }
            if a.key != b.key { return a.key < b.key }
            if a.screen != b.screen { return a.screen < b.screen }
            return a.session < b.session
        }
    }

    /// The events, sorted by name, user and time.
    private(set) var entries: [Entry]

    /// A log of `entries`, in any order.
    init(_ entries: [Entry] = []) {
        self.entries = entries.sorted()
    }

    /// Decodes a stored blob.
    ///
    /// - Throws: ``DamagedRollup`` if it does not decode.
    init(encoded bytes: UnsafeRawBufferPointer) throws {
        let view = try View(bytes)
        entries = []
        entries.reserveCapacity(view.count)
        for section in view.sections {
            try view.forEachRun(of: section) { user, events in
                for index in events { entries.append(view.entry(at: index, user: user, name: section.name)) }
            }
        }
    }

    /// Adds `new` to the log: sorts only `new`, then merges the two in one pass.
    mutating func merge(_ new: [Entry]) {
        let new = new.sorted()
        var merged: [Entry] = []
        merged.reserveCapacity(entries.count + new.count)
        var (old, added) = (entries.startIndex, new.startIndex)
        while old < entries.endIndex, added < new.endIndex {
            if new[added] < entries[old] {
                merged.append(new[added])
                added += 1
            } else {
                merged.append(entries[old])
                old += 1
            }
        }
        merged += entries[old...]
        merged += new[added...]
        entries = merged
    }

    /// Takes the events of `users` out.
    mutating func removeAll(users: Set<UInt32>) {
        guard !users.isEmpty else { return }
        entries.removeAll { users.contains($0.user) }
    }

    /// The blob.
    var encoded: [UInt8] {
        // Each column's distinct values sorted, an entry's found by halves: a log has tens of
        // distinct keys and screens, and hashing each entry's twice (into a Set, then a
        // Dictionary) was most of the encoding.
        func dictionary<Value: Comparable>(_ column: [Value]) -> (column: [Value], values: [Value]) {
            var distinct: [Value] = []
            for value in column.sorted() where distinct.last != value { distinct.append(value) }
            return (column, distinct)
        }
        let keys = dictionary(entries.map(\.key))
        let screens = dictionary(entries.map(\.screen))
        let sessions = dictionary(entries.map(\.session))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.count * 6 + sessions.values.count * 8 + 64)
        for dictionary in [keys.values, screens.values] {
            Varint.append(UInt64(dictionary.count), to: &bytes)
            for value in dictionary { Varint.append(UInt64(value), to: &bytes) }
        }
        Varint.append(UInt64(sessions.values.count), to: &bytes)
        for session in sessions.values {
            for byte in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: session >> (8 * byte))) }
        }
        var sections: [SectionRuns] = []
        for entry in entries {
            if sections.last?.name != entry.name { sections.append((entry.name, 0, [])) }
            sections[sections.count - 1].events += 1
            if sections[sections.count - 1].runs.last?.user == entry.user {
                sections[sections.count - 1].runs[sections[sections.count - 1].runs.count - 1].count += 1
            } else {
                sections[sections.count - 1].runs.append((entry.user, 1))
            }
        }
        Self.append(sections, to: &bytes)
        func appendIndexes<Value: Comparable>(_ dictionary: (column: [Value], values: [Value])) {
            let width = View.width(forCount: dictionary.values.count)
            for value in dictionary.column {
                var (low, high) = (0, dictionary.values.count)
                while low < high {
                    let middle = (low + high) / 2
                    if dictionary.values[middle] < value { low = middle + 1 } else { high = middle }
                }
                for byte in 0..<width { bytes.append(UInt8(truncatingIfNeeded: UInt32(low) >> (8 * byte))) }
            }
        }
        appendIndexes(keys)
        appendIndexes(screens)
        appendIndexes(sessions)
        for entry in entries {
            for byte in 0..<3 { bytes.append(UInt8(truncatingIfNeeded: entry.offset >> (8 * byte))) }
        }
        return bytes
    }

    /// A stored blob read in place: its dictionaries and sections decoded, its columns read on
    /// demand.
    struct View {
        /// The events of one name.
        struct Section {
            /// The name's `label` id.
            let name: Int64
            /// The indexes of its events in the columns.
            let events: Range<Int>
            /// Where its runs start in the blob.
            fileprivate let runsStart: Int
            /// How many runs it has: how many users sent the name.
            let runCount: Int
        }

        /// The distinct keys, screens and sessions, by dictionary index.
        let keys: [Int64]
        let screens: [Int64]
        let sessions: [UInt64]
        /// The names' sections, by name ascending.
        let sections: [Section]
        /// The number of events.
        let count: Int
        /// The columns, read through a plain value: no reference counting where every event
        /// is read.
        let columns: Columns
        private var bytes: UnsafeRawBufferPointer { columns.bytes }

        /// The bytes of a dictionary index for a dictionary of `count` values.
        static func width(forCount count: Int) -> Int {
            count <= 256 ? 1 : count <= 65_536 ? 2 : 4
        }

        /// Reads the header of `bytes` and checks that the columns fit and hold only valid
        /// dictionary indexes.
        ///
        /// - Throws: ``DamagedRollup`` if they do not.
        init(_ bytes: UnsafeRawBufferPointer) throws {
            var position = 0
            func number(below limit: UInt64) throws(DamagedRollup) -> Int {
                guard let value = Varint.read(bytes, at: &position), value < limit else { throw DamagedRollup(table: "bucket_log") }
                return Int(value)
            }
            let limit = UInt64(bytes.count) + 1
            func dictionary() throws -> [Int64] {
                try (0..<number(below: limit)).map { _ in Int64(try number(below: UInt64(Int64.max))) }
            }
            (keys, screens) = (try dictionary(), try dictionary())
            let sessionCount = try number(below: limit)
            guard sessionCount <= (bytes.count - position) / 8 else { throw DamagedRollup(table: "bucket_log") }
            sessions = (0..<sessionCount).map { session in
                (0..<8).reduce(0) { $0 | UInt64(bytes[position + session * 8 + $1]) << (8 * $1) }
            }
            position += sessionCount * 8
            var sections: [Section] = []
            var events = 0
            // A section's runs are checked when they are read: a funnel reads a few sections.
            for _ in 0..<(try number(below: limit)) {
                let name = Int64(try number(below: UInt64(Int64.max)))
                let count = try number(below: limit)
                let runCount = try number(below: limit)
                let runsLength = try number(below: limit)
                guard runsLength <= bytes.count - position else { throw DamagedRollup(table: "bucket_log") }
                sections.append(Section(name: name, events: events..<events + count, runsStart: position, runCount: runCount))
                position += runsLength
                events += count
            }
            self.sections = sections
            count = events
            let (keyWidth, screenWidth) = (Self.width(forCount: keys.count), Self.width(forCount: screens.count))
            let sessionWidth = Self.width(forCount: sessions.count)
            let keyColumn = position
            let screenColumn = keyColumn + count * keyWidth
            let sessionColumn = screenColumn + count * screenWidth
            let offsetColumn = sessionColumn + count * sessionWidth
            guard offsetColumn + count * 3 == bytes.count else { throw DamagedRollup(table: "bucket_log") }
            columns = Columns(
                bytes: bytes, keyColumn: keyColumn, screenColumn: screenColumn, sessionColumn: sessionColumn, offsetColumn: offsetColumn,
                keyWidth: keyWidth, screenWidth: screenWidth, sessionWidth: sessionWidth)
            // Every dictionary index must name an entry (a millisecond out of range would only
            // move its event, so it is not checked).
            for (column, width, size) in [
                (keyColumn, keyWidth, keys.count), (screenColumn, screenWidth, screens.count),
                (sessionColumn, sessionWidth, sessions.count),
            ] {
                let largest =
                    width == 1
                    ? Int(UnsafeRawBufferPointer(rebasing: bytes[column..<column + count]).max() ?? 0)
                    : (0..<count).reduce(0) { max($0, Self.read(bytes, at: column + $1 * width, width: width)) }
                guard count == 0 || largest < size else { throw DamagedRollup(table: "bucket_log") }
            }
        }

        @inline(__always)
        fileprivate static func read(_ bytes: UnsafeRawBufferPointer, at position: Int, width: Int) -> Int {
            var value = 0
            for byte in 0..<width { value |= Int(bytes[position + byte]) << (8 * byte) }
            return value
        }

        /// Calls `body` with each user of `section`, ascending, and the indexes of their
        /// events of its name, in time order.
        ///
        /// - Throws: ``DamagedRollup`` if the runs do not decode or do not add up to the
        ///   section's events; what `body` throws.
        @inline(__always)
        func forEachRun(of section: Section, _ body: (_ user: UInt32, _ events: Range<Int>) throws -> Void) throws {
            var runs = runs(of: section)
            while let run = try runs.next() { try body(run.user, run.events) }
        }

        /// The section of the name with `label` id `name`, if the log has one.
        func section(named name: Int64) -> Section? {
            var (low, high) = (0, sections.count)
            while low < high {
                let middle = (low + high) / 2
                if sections[middle].name < name { low = middle + 1 } else { high = middle }
            }
            return low < sections.count && sections[low].name == name ? sections[low] : nil
        }

        /// The runs of `section`, to read one at a time.
        func runs(of section: Section) -> Runs {
            Runs(
                bytes: bytes, position: section.runsStart, remaining: section.runCount, first: section.events.lowerBound,
                end: section.events.upperBound)
        }

        /// A section's runs read one at a time: each user's events of its name, users ascending.
        struct Runs {
            fileprivate let bytes: UnsafeRawBufferPointer
            fileprivate var position: Int
            fileprivate var remaining: Int
            fileprivate var first: Int
            fileprivate let end: Int
            fileprivate var user: UInt64 = 0

            fileprivate init(bytes: UnsafeRawBufferPointer, position: Int, remaining: Int, first: Int, end: Int) {
                (self.bytes, self.position, self.remaining, self.first, self.end) = (bytes, position, remaining, first, end)
            }

            /// The next user and the indexes of their events, in time order; `nil` after the last.
            ///
            /// - Throws: ``DamagedRollup`` if the runs do not decode or do not add up to the
            ///   section's events.
            @inline(__always)
            mutating func next() throws(DamagedRollup) -> (user: UInt32, events: Range<Int>)? {
                guard remaining > 0 else {
                    guard first == end else { throw DamagedRollup(table: "bucket_log") }
                    return nil
                }
                guard let gap = Varint.read(bytes, at: &position), let events = Varint.read(bytes, at: &position),
                    gap <= UInt64(UInt32.max) - user, events <= UInt64(end - first)
                else { throw DamagedRollup(table: "bucket_log") }
                remaining -= 1
                user += gap
                defer { first += Int(events) }
                return (UInt32(user), first..<first + Int(events))
            }
        }

        /// Event `index`, of `user`'s run in the section of name `name`.
        @inline(__always)
        func entry(at index: Int, user: UInt32, name: Int64) -> Entry {
            Entry(
                user: user, offset: offset(at: index), name: name, key: keys[keyIndex(at: index)], screen: screens[screenIndex(at: index)],
                session: sessions[sessionIndex(at: index)])
        }

        /// The dictionary index of the key of event `index`.
        @inline(__always)
        func keyIndex(at index: Int) -> Int { columns.keyIndex(at: index) }

        /// The dictionary index of the screen of event `index`.
        @inline(__always)
        func screenIndex(at index: Int) -> Int { columns.screenIndex(at: index) }

        /// The dictionary index of the session of event `index`.
        @inline(__always)
        func sessionIndex(at index: Int) -> Int { columns.sessionIndex(at: index) }

        /// The millisecond of event `index` from the bucket's start.
        @inline(__always)
        func offset(at index: Int) -> UInt32 { columns.offset(at: index) }

        /// Where a log's columns are in its blob, and the blob.
        struct Columns {
            fileprivate let bytes: UnsafeRawBufferPointer
            fileprivate let keyColumn: Int
            fileprivate let screenColumn: Int
            fileprivate let sessionColumn: Int
            fileprivate let offsetColumn: Int
            fileprivate let keyWidth: Int
            fileprivate let screenWidth: Int
            fileprivate let sessionWidth: Int

            /// The dictionary index of the key of event `index`.
            @inline(__always)
            func keyIndex(at index: Int) -> Int {
                keyWidth == 1 ? Int(bytes[keyColumn + index]) : View.read(bytes, at: keyColumn + index * keyWidth, width: keyWidth)
            }

            /// The dictionary index of the screen of event `index`.
            @inline(__always)
            func screenIndex(at index: Int) -> Int {
                screenWidth == 1 ? Int(bytes[screenColumn + index]) : View.read(bytes, at: screenColumn + index * screenWidth, width: screenWidth)
            }

            /// The dictionary index of the session of event `index`.
            @inline(__always)
            func sessionIndex(at index: Int) -> Int {
                sessionWidth == 1
                    ? Int(bytes[sessionColumn + index]) : View.read(bytes, at: sessionColumn + index * sessionWidth, width: sessionWidth)
            }

            /// The millisecond of event `index` from the bucket's start.
            @inline(__always)
            func offset(at index: Int) -> UInt32 {
                let position = offsetColumn + index * 3
                return UInt32(bytes[position]) | UInt32(bytes[position + 1]) << 8 | UInt32(bytes[position + 2]) << 16
            }
        }
    }
}

extension BucketLog {
    /// A name's section of a log: the name, its events, and its runs of one user's events.
    typealias SectionRuns = (name: Int64, events: Int, runs: [(user: UInt32, count: Int)])

    /// Appends `sections` as the encoding stores them: their count, then per section its
    /// name, events, runs and the runs' bytes (each user as the gap from the previous one).
    /// The one writer of sections: ``encoded`` and a user's removal write the same bytes.
    static func append(_ sections: [SectionRuns], to bytes: inout [UInt8]) {
        Varint.append(UInt64(sections.count), to: &bytes)
        var runs: [UInt8] = []
        for section in sections {
            runs.removeAll(keepingCapacity: true)
            var previous: UInt32 = 0
            for run in section.runs {
                Varint.append(UInt64(run.user - previous), to: &runs)
                Varint.append(UInt64(run.count), to: &runs)
                previous = run.user
            }
            Varint.append(UInt64(section.name), to: &bytes)
            Varint.append(UInt64(section.events), to: &bytes)
            Varint.append(UInt64(section.runs.count), to: &bytes)
            Varint.append(UInt64(runs.count), to: &bytes)
            bytes.append(contentsOf: runs)
        }
    }
}

extension BucketLog {
    #if DEBUG
        /// Traps unless the entries are sorted (by name, user, time, then the rest) and each
        /// one's offset is within its bucket. Debug and test builds only (see
        /// ``UserSet/_checkInvariants()``).
        func _checkInvariants() {
            for index in entries.indices.dropFirst() { precondition(!(entries[index] < entries[index - 1]), "entries out of order") }
            precondition(entries.allSatisfy { Int64($0.offset) < Bucket.milliseconds }, "an offset past the bucket")
        }
    #else
        @inline(__always) func _checkInvariants() {}
    #endif
}

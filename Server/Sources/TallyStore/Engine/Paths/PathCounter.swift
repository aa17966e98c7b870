import Dispatch
import HeapModule
import Locking

/// Counts ``Paths`` from the ``DaySessions`` of the UTC days a range covers.
///
/// The days' sessions are merged by user and ``SessionHash`` (a session may span days); of
/// each session with the start's bit in a day's mask, the steps in the range are gathered in
/// time order, and the steps around its first start are counted per level. Within a
/// millisecond the day orders events by `label` id; the counter reorders such ties by text,
/// as ``Paths`` defines, with the ranks of the steps' texts.
struct PathCounter {
    /// What a step is, which way the levels go, and how many there are.
    let kind: Paths.Kind
    let direction: Paths.Direction
    let depth: Int
    /// The milliseconds whose events count.
    let range: Range<Int64>
    /// The start's `label` id (a name, or with ``Paths/Kind/screen`` a screen).
    let start: Int64
    /// The `label` id of `screen_view`, whose events are the steps of ``Paths/Kind/screen``.
    let screenView: Int64?

    /// Per level, the sessions per step's text, `nil` standing for the session's end (or
    /// beginning), and the sessions with the start.
    struct Counts {
        var sessions = 0
        var levels: [[String?: Int]]
    }

    /// Counts the paths of `days`, each with the millisecond its UTC day starts at, narrowed to
    /// `segment`'s events and users; `text` gives a `label` id's text, for ties. Two halves
    /// of the users are counted on two threads.
    ///
    /// - Throws: What `text` throws.
    func count(
        _ days: [(start: Int64, sessions: DaySessions)], segment: SegmentMatcher?, text: (Int64) throws -> String
    ) throws -> Counts {
        // Dense step numbers over the days' labels, in text order, so that ties sort by number.
        var labels: Set<Int64> = []
        for (_, day) in days { labels.formUnion(kind == .event ? day.names : day.screens.filter { $0 != 0 }) }
        let texts = try labels.map { (label: $0, text: try text($0)) }.sorted { $0.text < $1.text }
        let steps = texts.map(\.label)
        let numbers = Dictionary(uniqueKeysWithValues: steps.enumerated().map { ($1, Int32($0)) })
        var counts = Counts(levels: Array(repeating: [:], count: depth))
        guard let startNumber = numbers[start] else { return counts }
        let columns = days.map { Day($0.sessions, start: $0.start, counter: self, numbers: numbers, startNumber: startNumber, segment: segment) }
        defer { for day in columns { day.deallocate() } }
        // Halves split at a user, so that each session is counted whole by one thread.
        let sessions = days.reduce(0) { $0 + $1.sessions.users.count }
        let largest = days.map(\.sessions.users).max { $0.count < $1.count }
        let middle = largest.flatMap { $0.isEmpty ? nil : UInt64($0[$0.count / 2]) } ?? 0
        let all = 0..<UInt64(UInt32.max) + 1
        let halves = sessions < Self.sessionsForTwoThreads || middle == 0 ? [all] : [0..<middle, middle..<all.upperBound]
        let tallies = Locked([Tally?](repeating: nil, count: halves.count))
        DispatchQueue.concurrentPerform(iterations: halves.count) { half in
            let tally = count(users: halves[half], days: columns, start: startNumber, steps: steps.count, segment: segment)
            tallies.withLock { $0[half] = tally }
        }
        var levels = [Int](repeating: 0, count: depth * (steps.count + 1))
        for tally in tallies.withLock({ $0 }) {
            guard let tally else { continue }
            counts.sessions += tally.sessions
            for index in levels.indices { levels[index] += tally.levels[index] }
        }
        for level in 0..<depth {
            for step in 0...steps.count where levels[level * (steps.count + 1) + step] > 0 {
                counts.levels[level][step == steps.count ? nil : texts[step].text] = levels[level * (steps.count + 1) + step]
            }
        }
        return counts
    }

    /// Below this many sessions in all, one thread counts them.
    static let sessionsForTwoThreads = 4_096

    /// One thread's counts: the sessions with the start, and per level and step number (the
    /// last, ``steps``, for none) the sessions.
    private struct Tally {
        var sessions = 0
        var levels: [Int]
    }

    /// Counts the sessions of the users in `users`.
    private func count(users: Range<UInt64>, days: [Day], start: Int32, steps: Int, segment: SegmentMatcher?) -> Tally {
        var tally = Tally(levels: [Int](repeating: 0, count: depth * (steps + 1)))
        var heap = Heap<Cursor>()
        for (index, day) in days.enumerated() {
            let first = day.firstSession(ofUserNotBelow: users.lowerBound)
            if first < day.users.count, UInt64(day.users[first]) < users.upperBound { heap.insert(Cursor(day, index, first)) }
        }
        var group: [Cursor] = []
        var path: [(time: Int64, step: Int32)] = []
        while let first = heap.popMin() {
            group.removeAll(keepingCapacity: true)
            group.append(first)
            while let next = heap.min, next.user == first.user, next.hash == first.hash { group.append(heap.removeMin()) }
            var hasStart = false
            for cursor in group {
                let day = days[cursor.day]
                hasStart = hasStart || day.masks[cursor.session] & day.startBit != 0
                let next = cursor.session + 1
                if next < day.users.count, UInt64(day.users[next]) < users.upperBound { heap.insert(Cursor(day, cursor.day, next)) }
            }
            guard hasStart, segment?.allows(user: first.user) ?? true else { continue }
            path.removeAll(keepingCapacity: true)
            var ties = false
            for cursor in group {
                let day = days[cursor.day]
                for event in day.events(of: cursor.session) {
                    let time = day.start + Int64(day.times[event])
                    guard range.contains(time), let step = day.step(of: event) else { continue }
                    if let last = path.last, last.time == time, last.step != step { ties = true }
                    path.append((time, step))
                }
            }
            if ties { path.sort { ($0.time, $0.step) < ($1.time, $1.step) } }
            guard let origin = path.firstIndex(where: { $0.step == start }) else { continue }
            tally.sessions += 1
            for level in 1...depth {
                let index = direction == .after ? origin + level : origin - level
                let step = path.indices.contains(index) ? Int(path[index].step) : steps
                tally.levels[(level - 1) * (steps + 1) + step] += 1
            }
        }
        return tally
    }

    /// A day's next session to merge: ordered by user, hash, then day, so a session's days
    /// come in time order.
    private struct Cursor: Comparable {
        var user: UInt32
        var hash: UInt64
        var day: Int
        var session: Int

        init(_ columns: Day, _ day: Int, _ session: Int) {
            (user, hash, self.day, self.session) = (columns.users[session], columns.hashes[session], day, session)
        }

        /// Field by field, as ``BucketLog/Entry`` compares, for the same reason.
        static func < (a: Cursor, b: Cursor) -> Bool {
            if a.user != b.user { return a.user < b.user }
            if a.hash != b.hash { return a.hash < b.hash }
            return a.day < b.day
        }
        static func == (a: Cursor, b: Cursor) -> Bool { a.user == b.user && a.hash == b.hash && a.day == b.day }
    }

    /// A day as the counter reads it: its ``DaySessions``' columns in place, and its
    /// dictionaries as steps, in plain memory freed by ``deallocate()``: values without
    /// references, read without reference counting. Reading the days' arrays, retains and
    /// releases took a quarter of a 30-day path of the fixture (47 ms p50), and every event of
    /// every session was read; with plain memory and the sessions' masks, 17 to 22 ms.
    private struct Day: @unchecked Sendable {
        // Unchecked: only read, by both threads, while the buffers live (the day's, and its
        // own until `deallocate()`, after the threads end).
        let start: Int64
        let users: UnsafeMutableBufferPointer<UInt32>
        let hashes: UnsafeMutableBufferPointer<UInt64>
        let ends: UnsafeMutableBufferPointer<UInt32>
        let times: UnsafeMutableBufferPointer<UInt32>
        /// Per event, its index in the dictionary steps are taken from (names, or screens).
        let stepIndexes: UnsafeMutableBufferPointer<UInt32>
        let nameIndexes: UnsafeMutableBufferPointer<UInt32>
        let keyIndexes: UnsafeMutableBufferPointer<UInt32>
        /// Per session, the mask of that dictionary's indexes, and the start's bit in it (0
        /// when the day has no start).
        let masks: UnsafeMutableBufferPointer<UInt64>
        let startBit: UInt64
        /// Per index of that dictionary, its step number, or -1.
        let steps: UnsafeMutableBufferPointer<Int32>
        /// The name index of `screen_view`, when steps are screens (`.max` if the day has
        /// none); `nil` when steps are names.
        let screenView: UInt32?
        /// Per key index, whether the segment's events have it; empty without a segment.
        let keyMatches: UnsafeMutableBufferPointer<Bool>

        init(
            _ day: DaySessions, start: Int64, counter: PathCounter, numbers: [Int64: Int32], startNumber: Int32,
            segment: SegmentMatcher?
        ) {
            func buffer<Value>(_ values: [Value]) -> UnsafeMutableBufferPointer<Value> {
                let buffer = UnsafeMutableBufferPointer<Value>.allocate(capacity: values.count)
                _ = buffer.initialize(from: values)
                return buffer
            }
            self.start = start
            (users, hashes, ends, times) = (day.users, day.hashes, day.ends, day.times)
            (nameIndexes, keyIndexes) = (day.nameIndexes, day.keyIndexes)
            let screens = counter.kind == .screen
            (stepIndexes, masks) = screens ? (day.screenIndexes, day.screenMasks) : (day.nameIndexes, day.nameMasks)
            let numbered = (screens ? day.screens : day.names).map { numbers[$0] ?? -1 }
            startBit = numbered.firstIndex(of: startNumber).map { 1 << ($0 & 63) } ?? 0
            steps = buffer(numbered)
            screenView =
                screens ? counter.screenView.flatMap { label in day.names.firstIndex(of: label).map { UInt32($0) } } ?? .max : nil
            keyMatches = buffer(segment.map { segment in day.keys.map(segment.matches(key:)) } ?? [])
        }

        /// Frees what ``init(_:start:counter:numbers:startNumber:segment:)`` allocated.
        func deallocate() {
            steps.deallocate()
            keyMatches.deallocate()
        }

        /// The index of the first session whose user is `user` or above; the count if none is.
        func firstSession(ofUserNotBelow user: UInt64) -> Int {
            var (low, high) = (0, users.count)
            while low < high {
                let middle = (low + high) / 2
                if UInt64(users[middle]) < user { low = middle + 1 } else { high = middle }
            }
            return low
        }

        /// The events of session `session`: the range of its indexes in the columns.
        @inline(__always)
        func events(of session: Int) -> Range<Int> {
            (session == 0 ? 0 : Int(ends[session - 1]))..<Int(ends[session])
        }

        /// The step number of event `event`, `nil` if it is no step or the segment leaves it out.
        @inline(__always)
        func step(of event: Int) -> Int32? {
            if !keyMatches.isEmpty, !keyMatches[Int(keyIndexes[event])] { return nil }
            if let screenView, nameIndexes[event] != screenView { return nil }
            let step = steps[Int(stepIndexes[event])]
            return step < 0 ? nil : step
        }
    }
}

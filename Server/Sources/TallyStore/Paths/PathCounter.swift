import HeapModule

/// Counts ``Paths`` from the ``DaySessions`` of the UTC days a range covers.
///
/// The days' sessions are merged by user and ``SessionHash`` (a session may span days), each
/// session's steps in the range are gathered in time order, and the steps around its first
/// start are counted per level. Within a millisecond the day orders events by `label` id; the
/// counter reorders such ties by text, as ``Paths`` defines, with the ranks of the steps'
/// texts.
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

    /// Per level, the sessions per step `label` id, `nil` standing for the session's end (or
    /// beginning), and the sessions with the start.
    struct Counts {
        var sessions = 0
        var levels: [[Int64?: Int]]
    }

    /// Counts the paths of `days`, each with the millisecond its UTC day starts at, narrowed to
    /// `segment`'s events and users; `text` gives a `label` id's text, for ties.
    ///
    /// - Throws: What `text` throws.
    func count(
        _ days: [(start: Int64, sessions: DaySessions)], segment: SegmentMatcher?, text: (Int64) throws -> String
    ) throws -> Counts {
        // Dense step numbers over the days' labels, in text order, so that ties sort by number.
        var labels: Set<Int64> = []
        for (_, day) in days { labels.formUnion(kind == .event ? day.names : day.screens.filter { $0 != 0 }) }
        let steps = try labels.map { (label: $0, text: try text($0)) }.sorted { $0.text < $1.text }.map(\.label)
        let numbers = Dictionary(uniqueKeysWithValues: steps.enumerated().map { ($1, Int32($0)) })
        var counts = Counts(levels: Array(repeating: [:], count: depth))
        guard let startNumber = numbers[start] else { return counts }
        let maps = days.map { Map($0.sessions, kind: kind, screenView: screenView, numbers: numbers, segment: segment) }
        var tallies = [Int](repeating: 0, count: depth * (steps.count + 1))
        var heap = Heap(days.indices.compactMap { day in days[day].sessions.users.isEmpty ? nil : Cursor(days[day].sessions, day: day, session: 0) })
        var group: [Cursor] = []
        var path: [(time: Int64, step: Int32)] = []
        while let first = heap.popMin() {
            group.removeAll(keepingCapacity: true)
            group.append(first)
            while let next = heap.min, next.user == first.user, next.hash == first.hash { group.append(heap.removeMin()) }
            for cursor in group where cursor.session + 1 < days[cursor.day].sessions.users.count {
                heap.insert(Cursor(days[cursor.day].sessions, day: cursor.day, session: cursor.session + 1))
            }
            guard segment?.allows(user: first.user) ?? true else { continue }
            path.removeAll(keepingCapacity: true)
            var ties = false
            for cursor in group {
                let (day, map) = (days[cursor.day], maps[cursor.day])
                for event in day.sessions.events(of: cursor.session) {
                    let time = day.start + Int64(day.sessions.times[event])
                    guard range.contains(time), let step = map.step(of: event, in: day.sessions) else { continue }
                    if let last = path.last, last.time == time, last.step != step { ties = true }
                    path.append((time, step))
                }
            }
            if ties { path.sort { ($0.time, $0.step) < ($1.time, $1.step) } }
            guard let origin = path.firstIndex(where: { $0.step == startNumber }) else { continue }
            counts.sessions += 1
            for level in 1...depth {
                let index = direction == .after ? origin + level : origin - level
                let step = path.indices.contains(index) ? Int(path[index].step) : steps.count
                tallies[(level - 1) * (steps.count + 1) + step] += 1
            }
        }
        for level in 0..<depth {
            for step in 0...steps.count where tallies[level * (steps.count + 1) + step] > 0 {
                counts.levels[level][step == steps.count ? nil : steps[step]] = tallies[level * (steps.count + 1) + step]
            }
        }
        return counts
    }

    /// A day's next session to merge: ordered by user, hash, then day, so a session's days
    /// come in time order.
    private struct Cursor: Comparable {
        var user: UInt32
        var hash: UInt64
        var day: Int
        var session: Int

        init(_ sessions: DaySessions, day: Int, session: Int) {
            (user, hash, self.day, self.session) = (sessions.users[session], sessions.hashes[session], day, session)
        }

        static func < (a: Cursor, b: Cursor) -> Bool { (a.user, a.hash, a.day) < (b.user, b.hash, b.day) }
        static func == (a: Cursor, b: Cursor) -> Bool { (a.user, a.hash, a.day) == (b.user, b.hash, b.day) }
    }

    /// A day's dictionaries as steps: the step number of each name (or screen), and which
    /// segment keys match.
    private struct Map {
        /// Per name index (``Paths/Kind/event``) or screen index, its step number, or -1.
        let steps: [Int32]
        /// The name index of `screen_view` with ``Paths/Kind/screen``.
        let screenView: UInt32?
        /// Per key index, whether the segment's events have it; empty without a segment.
        let keys: [Bool]

        init(_ day: DaySessions, kind: Paths.Kind, screenView: Int64?, numbers: [Int64: Int32], segment: SegmentMatcher?) {
            steps = (kind == .event ? day.names : day.screens).map { numbers[$0] ?? -1 }
            self.screenView =
                kind == .screen ? screenView.flatMap { label in day.names.firstIndex(of: label).map { UInt32($0) } } ?? .max : nil
            keys = segment.map { segment in day.keys.map(segment.matches(key:)) } ?? []
        }

        /// The step number of event `event` of `day`, `nil` if it is no step or the segment
        /// leaves it out.
        @inline(__always)
        func step(of event: Int, in day: DaySessions) -> Int32? {
            if !keys.isEmpty, !keys[Int(day.keyIndexes[event])] { return nil }
            let step: Int32
            if let screenView {
                guard day.nameIndexes[event] == screenView else { return nil }
                step = steps[Int(day.screenIndexes[event])]
            } else {
                step = steps[Int(day.nameIndexes[event])]
            }
            return step < 0 ? nil : step
        }
    }
}

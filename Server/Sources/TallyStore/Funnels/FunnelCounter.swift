import Dispatch
import Locking

/// Counts a funnel user by user: the computation behind
/// ``EventStore/funnel(app:steps:from:to:window:timeZone:filter:breakdown:)``.
///
/// It reads the ``DayLog``s of the steps' names, each sorted by user, in blocks of users
/// (about 16,384 events a block), the two threads taking alternate blocks. A block is one
/// slice of each day log: its events are gathered by user with a counting sort, in the order
/// of the day logs (by day, then name), each user's put in time order and counted in one
/// pass, all within the core's cache. Over the 15-minute bucket logs instead, which are
/// sorted by user only within a bucket, partitioning the events by user first took 22 ms
/// for a 30-day, 4-step funnel of the 20,000-user fixture, 10 of them to partition.
///
/// For each step k and breakdown value, the pass keeps the latest first-step time of a chain
/// reaching step k so far: a later event of step k + 1 within the window of that time
/// extends it, and no other chain could where that one cannot. So it finds whether the user
/// reaches each step and, for each, their shortest time from a first-step event (an event
/// completing step k at time t is best served by the latest start). Events at one
/// millisecond see only what came strictly before them.
struct FunnelCounter {
    /// The day logs a funnel reads, by day then name.
    struct Logs: @unchecked Sendable {
        // Unchecked: read only once made; its sources point into the day logs it keeps.
        /// The day logs, which the sources read.
        let dayLogs: [DayLog]
        /// The names (`label` ids) of the day logs of each day.
        let names: [Int64]
        /// Each day log whose name matches a step, by day then name.
        private(set) var sources: [Source] = []
        /// Per source, from its ``Source/keyMatches``, per entry of its key dictionary whether
        /// the segment's event conditions hold.
        private(set) var keyMatches: [Bool] = []
        /// Per day, then name: the index of its source, or -1 without one.
        private(set) var table: [Int] = []
        /// The most events one user has in the sources, all together.
        private(set) var longest = 0

        /// The day logs `dayLogs` of `names` (`label` ids) over the UTC days `days`, a day log
        /// for each name and day in that order, where `steps` gives the bits of the steps a
        /// name matches and `segment` (if any) which segment keys match.
        init(_ dayLogs: [DayLog], days: [Int64], names: [Int64], steps: (Int64) -> UInt16, segment: SegmentMatcher?) {
            (self.dayLogs, self.names) = (dayLogs, names)
            for (dayIndex, day) in days.enumerated() {
                for (nameIndex, name) in names.enumerated() {
                    let log = dayLogs[dayIndex * names.count + nameIndex]
                    let named = steps(name)
                    guard named != 0, !log.users.isEmpty else {
                        table.append(-1)
                        continue
                    }
                    table.append(sources.count)
                    longest += log.longestRun
                    sources.append(
                        Source(
                            users: UnsafeBufferPointer(log.users), ends: UnsafeBufferPointer(log.ends), times: UnsafeBufferPointer(log.times),
                            keyIndexes: UnsafeBufferPointer(log.keyIndexes), screenIndexes: UnsafeBufferPointer(log.screenIndexes),
                            start: day * Bucket.perDay * Bucket.milliseconds, steps: named, name: name,
                            log: dayIndex * names.count + nameIndex,
                            keyMatches: keyMatches.count))
                    keyMatches += log.keys.map { segment?.matches(key: $0) ?? true }
                }
            }
        }
    }

    /// A day log read through plain values (no reference counting where every event is
    /// read); the day log lives as long as the ``Logs``.
    struct Source {
        let users: UnsafeBufferPointer<UInt32>
        let ends: UnsafeBufferPointer<UInt32>
        let times: UnsafeBufferPointer<UInt32>
        let keyIndexes: UnsafeBufferPointer<UInt32>
        let screenIndexes: UnsafeBufferPointer<UInt32>
        /// The day's first millisecond.
        let start: Int64
        /// The bits of the steps its name matches, before their conditions.
        let steps: UInt16
        /// The name's `label` id.
        let name: Int64
        /// Its day log's index in ``Logs/dayLogs``.
        let log: Int
        /// Where its entries start in ``Logs/keyMatches``.
        let keyMatches: Int

        /// Where the events of the user at `index` start.
        @inline(__always)
        func first(of index: Int) -> Int { index == 0 ? 0 : Int(ends[index - 1]) }

        /// The index of the first user at least `user`, from `index` on.
        ///
        /// Gallops from `index`, then halves: a block's users are a few hundred runs on, and
        /// halving over the whole rest took a third of a block's own time in cache misses.
        func index(of user: UInt32, from index: Int) -> Int {
            var (low, step) = (index, 1)
            while low + step < users.count, users[low + step] < user {
                low += step
                step *= 2
            }
            var high = min(low + step, users.count)
            while low < high {
                let middle = (low + high) / 2
                if users[middle] < user { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    /// The result: per breakdown value, per step, the users who reached it and the median of
    /// their shortest times in milliseconds (`nil` for the first step or nobody).
    typealias Counts = [[(users: Int, medianMilliseconds: Double?)]]

    /// The number of steps.
    let steps: Int
    /// Per step, the index of its name in the ``Logs``' names (`nil` if no event has it).
    let stepNames: [Int?]
    /// The longest a chain takes from its first-step event, in milliseconds.
    let window: Int64
    /// The times of the first-step events that start a chain, in milliseconds since 1970.
    let starts: Range<Int64>
    /// The number of breakdown values (1 without a breakdown).
    let values: Int

    private static let none = Int64.min
    /// How many blocks of users the threads share, alternately.
    private static let blocks = 64

    /// Counts the events of `logs`, of about `users` users (which sets the blocks).
    ///
    /// An event counts when its key matches (``Logs/keyMatches``), `segment` allows its user,
    /// and `matcher` finds it matches a step; with `breakdown`, its first-step events take
    /// their value from `matcher`.
    func count(_ logs: Logs, users: Int, matcher: FunnelMatcher, segment: SegmentMatcher?, breakdown: Bool) -> Counts {
        let last = logs.sources.reduce(0) { max($0, Int($1.users[$1.users.count - 1])) }
        let perBlock = max(1, (last + Self.blocks) / Self.blocks)
        let durations = Locked([[[Int64]]](repeating: Array(repeating: [], count: steps), count: values))
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            let walk = Walk(counter: self, logs: logs, matcher: matcher, segment: segment, breakdown: breakdown)
            for block in stride(from: thread * perBlock, through: last, by: 2 * perBlock) {
                walk.count(UInt32(block)..<UInt32(min(block + perBlock, last + 1)))
            }
            durations.withLock { durations in
                for value in 0..<values {
                    for step in 0..<steps { durations[value][step] += walk.durations[value * steps + step] }
                }
            }
        }
        return durations.withLock { $0 }.map { steps in
            steps.enumerated().map { step, times in
                var times = times
                return (times.count, step > 0 ? Self.median(&times) : nil)
            }
        }
    }

    /// One thread's walk through the sources, user by user, and its storage, reused from one
    /// block of users to the next.
    ///
    /// Each source keeps the next user it has, so that a user's events of a name are, day by
    /// day, the runs of the sources of that name whose next user they are: in time order
    /// without being gathered or sorted. Gathering each block's events by user and name with a
    /// counting sort first took two thirds of a 30-day funnel (13 ms of the 20,000-user
    /// fixture), writing every event once more.
    ///
    /// Its buffers are plain memory it owns, and its properties are one thread's only, unchecked
    /// for exclusive access: through arrays, each event's reads and writes were checked for
    /// bounds, exclusive access and uniqueness.
    private final class Walk {
        let counter: FunnelCounter
        let logs: Logs
        let matcher: FunnelMatcher
        let segment: SegmentMatcher?
        let breakdown: Bool
        /// The sources, and per day then name the index of its source (-1 for none).
        let sources: UnsafeMutableBufferPointer<Source>
        let table: UnsafeMutableBufferPointer<Int>
        /// Per source: its next user (`UInt32.max` past its last), that user's run, and where
        /// the run's events start.
        @exclusivity(unchecked) var next = Buffer<UInt32>()
        @exclusivity(unchecked) var runs = Buffer<Int>()
        @exclusivity(unchecked) var firstEvents = Buffer<Int>()
        /// A user's first-step events, with their breakdown value.
        @exclusivity(unchecked) var firstSteps = Buffer<(time: Int64, value: Int32)>()
        /// The chains reaching the step before, and those reaching this step: each as the time
        /// it reached the step and the latest first-step time it can start from.
        @exclusivity(unchecked) var previous = Buffer<(time: Int64, start: Int64)>()
        @exclusivity(unchecked) var current = Buffer<(time: Int64, start: Int64)>()
        /// Per breakdown value, then step, each user's shortest time.
        @exclusivity(unchecked) var durations: [[Int64]]

        init(counter: FunnelCounter, logs: Logs, matcher: FunnelMatcher, segment: SegmentMatcher?, breakdown: Bool) {
            (self.counter, self.logs, self.matcher, self.segment, self.breakdown) = (counter, logs, matcher, segment, breakdown)
            sources = .allocate(capacity: logs.sources.count)
            _ = sources.initialize(from: logs.sources)
            table = .allocate(capacity: logs.table.count)
            _ = table.initialize(from: logs.table)
            next.reserve(logs.sources.count)
            runs.reserve(logs.sources.count)
            firstEvents.reserve(logs.sources.count)
            for index in sources.indices {
                (next.base[index], runs.base[index], firstEvents.base[index]) = (sources[index].users[0], 0, 0)
            }
            firstSteps.reserve(logs.longest)
            previous.reserve(logs.longest)
            current.reserve(logs.longest)
            durations = Array(repeating: [], count: counter.values * counter.steps)
        }

        deinit {
            sources.deallocate()
            table.deallocate()
            next.free()
            runs.free()
            firstEvents.free()
            firstSteps.free()
            previous.free()
            current.free()
        }

        /// Counts the users numbered in `users`, adding their shortest times to ``durations``.
        func count(_ users: Range<UInt32>) {
            let (next, runs, firstEvents) = (next.base, runs.base, firstEvents.base)
            for index in sources.indices where next[index] < users.lowerBound {
                let source = sources[index]
                let run = source.index(of: users.lowerBound, from: runs[index])
                (runs[index], firstEvents[index]) = (run, source.first(of: run))
                next[index] = run < source.users.count ? source.users[run] : .max
            }
            let restricts = segment?.restrictsUsers ?? false
            for user in users {
                if !restricts || segment!.allows(user: user) { countUser(user) }
                for index in sources.indices where next[index] == user {
                    let source = sources[index]
                    let run = runs[index]
                    (runs[index], firstEvents[index]) = (run + 1, Int(source.ends[run]))
                    next[index] = run + 1 < source.users.count ? source.users[run + 1] : .max
                }
            }
        }

        /// Calls `body` with the time and index (in its source) of each event of `user` that
        /// matches `step`, in time order, with the source's index.
        @inline(__always)
        private func forEachEvent(of user: UInt32, step: Int, _ body: (_ time: Int64, _ source: Int, _ event: Int) -> Void) {
            guard let name = counter.stepNames[step] else { return }
            let names = logs.names.count
            let bit = UInt16(1) << step
            let conditional = matcher.conditionalSteps
            let filtered = segment != nil
            var cell = name
            while cell < table.count {
                defer { cell += names }
                let index = table[cell]
                guard index >= 0, next.base[index] == user else { continue }
                let source = sources[index]
                for event in firstEvents.base[index]..<Int(source.ends[runs.base[index]]) {
                    if filtered, !logs.keyMatches[source.keyMatches + Int(source.keyIndexes[event])] { continue }
                    if source.steps & conditional & bit != 0, matcher.steps(of: entry(source, event, user: user)) & bit == 0 { continue }
                    body(source.start + Int64(source.times[event]), index, event)
                }
            }
        }

        /// Event `event` of `source`, of `user`, for the matcher.
        private func entry(_ source: Source, _ event: Int, user: UInt32) -> BucketLog.Entry {
            let log = logs.dayLogs[source.log]
            return BucketLog.Entry(
                user: user, offset: 0, name: source.name, key: log.keys[Int(source.keyIndexes[event])],
                screen: log.screens[Int(source.screenIndexes[event])])
        }

        /// Counts one user's chains, adding their shortest times to ``durations``: per
        /// breakdown value of their first-step events, or once without a breakdown.
        private func countUser(_ user: UInt32) {
            let starts = counter.starts
            var count = 0
            let firstSteps = firstSteps.base
            forEachEvent(of: user, step: 0) { time, source, event in
                guard starts.contains(time) else { return }
                firstSteps[count] = (time, breakdown ? matcher.value(of: entry(sources[source], event, user: user)) : 0)
                count += 1
            }
            guard count > 0 else { return }
            guard breakdown else {
                countChains(user, firstSteps: count, value: nil)
                return
            }
            // The user's values, each counted once: a user has one or a few.
            var seen: [Int32] = []
            for index in 0..<count where !seen.contains(firstSteps[index].value) {
                seen.append(firstSteps[index].value)
                countChains(user, firstSteps: count, value: firstSteps[index].value)
            }
        }

        /// Counts one user's chains from their first `firstSteps` first-step events of
        /// breakdown value `value` (any, if `nil`), step by step: the chains reaching step
        /// k + 1 are the events of step k + 1 with a chain reaching step k strictly before them
        /// whose latest start is within the window. A user's events of a name come in time
        /// order, so each step is one merge of two ordered lists.
        private func countChains(_ user: UInt32, firstSteps count: Int, value: Int32?) {
            let window = counter.window
            var (previous, current) = (previous.base, current.base)
            var reaching = 0
            for index in 0..<count where value == nil || firstSteps.base[index].value == value {
                let time = firstSteps.base[index].time
                previous[reaching] = (time, time)
                reaching += 1
            }
            let row = Int(value ?? 0) * counter.steps
            durations[row].append(0)
            for step in 1..<counter.steps {
                var (reached, extended, latest, shortest) = (0, 0, FunnelCounter.none, Int64.max)
                forEachEvent(of: user, step: step) { time, _, _ in
                    while reached < reaching, previous[reached].time < time {
                        latest = max(latest, previous[reached].start)
                        reached += 1
                    }
                    guard latest != FunnelCounter.none, time - latest <= window else { return }
                    current[extended] = (time, latest)
                    extended += 1
                    shortest = min(shortest, time - latest)
                }
                guard extended > 0 else { return }
                durations[row + step].append(shortest)
                swap(&previous, &current)
                reaching = extended
            }
        }
    }

    /// Plain memory of `Element`s (trivial values) that grows and never shrinks; its owner frees it.
    private struct Buffer<Element> {
        private(set) var base = UnsafeMutablePointer<Element>.allocate(capacity: 1)
        private(set) var capacity = 1

        /// Makes room for `count` elements, dropping what it held if it must grow.
        mutating func reserve(_ count: Int) {
            guard count > capacity else { return }
            base.deallocate()
            capacity = max(count, capacity * 2)
            base = .allocate(capacity: capacity)
        }

        func free() { base.deallocate() }
    }

    /// The median of `times`, which it reorders; `nil` if empty. Selects the middle instead of
    /// sorting: sorting each step's 20,000 times took a millisecond of a 30-day funnel.
    static func median(_ times: inout [Int64]) -> Double? {
        guard !times.isEmpty else { return nil }
        let middle = times.count / 2
        let upper = select(middle, in: &times)
        guard times.count % 2 == 0 else { return Double(upper) }
        // Everything before `middle` is now at most `upper`: the other middle is their largest.
        return (Double(times[..<middle].max() ?? upper) + Double(upper)) / 2
    }

    /// The element of `times` that would be at `index` sorted; after it, the ones before
    /// `index` are at most it, the ones after at least it.
    private static func select(_ index: Int, in times: inout [Int64]) -> Int64 {
        var range = times.indices
        while range.count > 1 {
            let pivot = times[range.lowerBound + range.count / 2]
            let below = times[range].partition { $0 >= pivot }
            let equal = times[below..<range.upperBound].partition { $0 > pivot }
            if index < below {
                range = range.lowerBound..<below
            } else if index < equal {
                return pivot
            } else {
                range = equal..<range.upperBound
            }
        }
        return times[index]
    }
}

import Dispatch
import Locking

/// Counts a funnel user by user: the computation behind
/// ``MetricStore/funnel(_:window:breakdown:in:)``.
///
/// It reads the ``DayLog``s of the steps' names, each sorted by user, in blocks of users
/// (about 16,384 events a block), the two threads taking alternate blocks. A block is one
/// slice of each day log: a counting sort gathers its events by user and name, and since the
/// day logs come by day, then name, each group is in time order. Then each user is counted
/// step by step, all within the core's cache. Over the 15-minute bucket logs instead, which
/// are sorted by user only within a bucket, partitioning the events by user first took
/// 22 ms for a 30-day, 4-step funnel of the 20,000-user fixture, 10 of them to partition.
///
/// A step's chains are the events of the step with a chain of the step before strictly
/// earlier, each with the latest first-step time of those chains: it is within the window
/// of the event if any is, and no other chain could go further. So one merge of each step's
/// events with the chains before it finds whether the user reaches each step and their
/// shortest time to it from a first-step event (an event completing a step is best served
/// by the latest start). Events at one millisecond see only what came strictly before them.
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

        /// The day logs `dayLogs` of `names` (`label` ids) over the UTC days `days`, a day log
        /// for each name and day in that order, where `steps` gives the bits of the steps a
        /// name matches and `segment` (if any) which segment keys match.
        init(_ dayLogs: [DayLog], days: [Int64], names: [Int64], steps: (Int64) -> UInt16, segment: SegmentMatcher?) {
            (self.dayLogs, self.names) = (dayLogs, names)
            for (dayIndex, day) in days.enumerated() {
                for (nameIndex, name) in names.enumerated() {
                    let log = dayLogs[dayIndex * names.count + nameIndex]
                    let named = steps(name)
                    guard named != 0, !log.users.isEmpty else { continue }
                    sources.append(
                        Source(
                            users: UnsafeBufferPointer(log.users), ends: UnsafeBufferPointer(log.ends), times: UnsafeBufferPointer(log.times),
                            keyIndexes: UnsafeBufferPointer(log.keyIndexes), screenIndexes: UnsafeBufferPointer(log.screenIndexes),
                            start: day * Bucket.perDay * Bucket.milliseconds, steps: named, name: name, nameIndex: nameIndex,
                            log: dayIndex * names.count + nameIndex,
                            keyMatches: keyMatches.count))
                    // Read only under a segment.
                    if let segment { keyMatches += log.keys.map(segment.matches(key:)) }
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
        /// The name's `label` id, and its index in ``Logs/names``.
        let name: Int64
        let nameIndex: Int
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

    /// An event that matches at least one step: its millisecond from the first day's start,
    /// shifted left by ``stepBits``, and the bits of the steps it matches (bit 0: the first step).
    fileprivate typealias Event = Int64
    /// The bits below a time in an ``Event``.
    private static let stepBits: Int64 = 10

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

    /// The latest start of no chain: far enough below every time that a time less it exceeds
    /// any window, so that the window's test needs no other.
    private static let none = Int64.min / 4
    /// About the events a block of users takes.
    private static let eventsPerBlock = 16_384

    /// Counts the events of `logs`, of about `users` users (which sets the blocks).
    ///
    /// An event counts when its key matches (``Logs/keyMatches``), `segment` allows its user,
    /// and `matcher` finds it matches a step; with `breakdown`, its first-step events take
    /// their value from `matcher`.
    func count(_ logs: Logs, users: Int, matcher: FunnelMatcher, segment: SegmentMatcher?, breakdown: Bool) -> Counts {
        let events = logs.sources.reduce(0) { $0 + $1.times.count }
        // A power of two of users a block, so that a block's first user is a shift away.
        let wanted = max(2, (events + Self.eventsPerBlock - 1) / Self.eventsPerBlock)
        let shift = Int.bitWidth - (max(1, (users + wanted - 1) / wanted) - 1).leadingZeroBitCount
        let blocks = max(1, (users + (1 << shift) - 1) >> shift)
        let base = logs.sources.first?.start ?? 0
        let scratches = [Scratch.taken(), Scratch.taken()]
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            let block = Block(
                counter: self, logs: logs, base: base, matcher: matcher, segment: segment, breakdown: breakdown, scratch: scratches[thread])
            for index in stride(from: thread, to: blocks, by: 2) {
                // The last block takes every user after it: the count of users only sizes them.
                let end = index == blocks - 1 ? UInt64(UInt32.max) + 1 : UInt64(index + 1) << shift
                block.count(UInt64(index) << shift..<end)
            }
        }
        // The second thread's times join the first's, then each list's median is found on a
        // thread of its own.
        for index in 0..<values * steps { scratches[0].durations[index].append(contentsOf: scratches[1].durations[index]) }
        let counts = Locked(Array(repeating: Array(repeating: (users: 0, medianMilliseconds: Double?.none), count: steps), count: values))
        DispatchQueue.concurrentPerform(iterations: values * steps) { index in
            let (value, step) = index.quotientAndRemainder(dividingBy: steps)
            let times = scratches[0].durations[index].times
            let count = (times.count, step > 0 ? Self.median(times) : nil)
            counts.withLock { $0[value][step] = count }
        }
        scratches.forEach(Scratch.recycle)
        return counts.withLock { $0 }
    }

    /// One thread's count of blocks of users, in the buffers of its ``Scratch``, reused from one
    /// block to the next.
    ///
    /// The buffers are plain memory, and its properties are one thread's only, unchecked for
    /// exclusive access: through arrays, each event's reads and writes were checked for
    /// bounds, exclusive access and uniqueness, which took most of the count.
    private final class Block {
        let counter: FunnelCounter
        let logs: Logs
        /// The first day's start, which event times count from.
        let base: Int64
        let matcher: FunnelMatcher
        let segment: SegmentMatcher?
        let breakdown: Bool
        /// The first-step times that start a chain, from `base`.
        let starts: Range<Int64>
        /// Per source, the index of the first user not yet read.
        @exclusivity(unchecked) var cursors: [Int]
        /// Per source, the users of the block.
        @exclusivity(unchecked) var slices: [Range<Int>]
        /// Its buffers, given back to the pool when the count ends.
        let scratch: Scratch

        init(
            counter: FunnelCounter, logs: Logs, base: Int64, matcher: FunnelMatcher, segment: SegmentMatcher?, breakdown: Bool, scratch: Scratch
        ) {
            (self.counter, self.logs, self.base, self.matcher, self.segment, self.breakdown) = (counter, logs, base, matcher, segment, breakdown)
            starts = (counter.starts.lowerBound - base)..<(counter.starts.upperBound - base)
            cursors = Array(repeating: 0, count: logs.sources.count)
            slices = Array(repeating: 0..<0, count: logs.sources.count)
            self.scratch = scratch
            scratch.clear(durations: counter.values * counter.steps)
        }

        /// Counts the users numbered in `users`, adding their shortest times to its scratch's durations.
        func count(_ users: Range<UInt64>) {
            let first = users.lowerBound
            var last: UInt64?
            for (index, source) in logs.sources.enumerated() {
                let lower = source.index(of: UInt32(first), from: cursors[index])
                let upper = users.upperBound > UInt32.max ? source.users.count : source.index(of: UInt32(users.upperBound), from: lower)
                (slices[index], cursors[index]) = (lower..<upper, upper)
                if upper > lower { last = max(last ?? 0, UInt64(source.users[upper - 1])) }
            }
            guard let last else { return }
            let names = logs.names.count
            let restricts = segment?.restrictsUsers ?? false
            let groups = (Int(last - first) + 1) * names
            scratch.firsts.reserve(groups + 1)
            scratch.ends.reserve(groups)
            let offsets = scratch.firsts.base
            offsets.initialize(repeating: 0, count: groups + 1)
            for (index, source) in logs.sources.enumerated() {
                var runStart = source.first(of: slices[index].lowerBound)
                for run in slices[index] {
                    let end = Int(source.ends[run])
                    defer { runStart = end }
                    guard !restricts || segment!.allows(user: source.users[run]) else { continue }
                    offsets[Int(UInt64(source.users[run]) - first) * names + source.nameIndex + 1] += end - runStart
                }
            }
            // Each group takes one event more than it has, which the copy of a run may write.
            var largest = 0
            for index in 1...groups {
                largest = max(largest, offsets[index])
                offsets[index] += offsets[index - 1] + 1
            }
            scratch.events.reserve(offsets[groups])
            scratch.previous.reserve(largest + 5)
            scratch.current.reserve(largest + 5)
            if breakdown { scratch.values.reserve(offsets[groups]) }
            scratch.ends.base.update(from: offsets, count: groups)
            gather(from: first, names: names, restricts: restricts)
            for user in 0..<groups / names { countUser(groups: user * names) }
        }

        /// Writes the events of the block's slices, from the user numbered `first`, to their
        /// groups, moving ``ends``.
        private func gather(from first: UInt64, names: Int, restricts: Bool) {
            let conditional = matcher.conditionalSteps
            let filtered = segment != nil
            let (events, values, ends) = (scratch.events.base, scratch.values.base, scratch.ends.base)
            logs.keyMatches.withUnsafeBufferPointer { keyMatches in
                for (index, source) in logs.sources.enumerated() {
                    let start = (source.start - base) << FunnelCounter.stepBits
                    // Most day logs need neither an entry nor a value: their events are only
                    // checked against the segment's keys, if it has a filter.
                    let plain = source.steps & conditional == 0 && !(breakdown && source.steps & 1 != 0)
                    let named = start | Int64(source.steps)
                    if plain, !filtered, !restricts {
                        // The most common case: each run copied as it is. Most runs have one
                        // event or two: two are copied without a test, the second past the
                        // run's end when it has one (into the group's spare event or the place
                        // of its next, and from the time past a day log's last), and a loop
                        // copies the rest. A loop for every run spent most of the copy on its
                        // mispredicted end.
                        guard let times = source.times.baseAddress else { continue }
                        var event = source.first(of: slices[index].lowerBound)
                        for run in slices[index] {
                            let group = Int(UInt64(source.users[run]) - first) * names + source.nameIndex
                            let end = ends[group]
                            let last = Int(source.ends[run])
                            events[end] = named &+ Int64(times[event]) &<< FunnelCounter.stepBits
                            events[end + 1] = named &+ Int64(times[event + 1]) &<< FunnelCounter.stepBits
                            for rest in 2..<max(2, last - event) {
                                events[end + rest] = named &+ Int64(times[event + rest]) &<< FunnelCounter.stepBits
                            }
                            ends[group] = end + last - event
                            event = last
                        }
                        continue
                    }
                    for run in slices[index] {
                        let user = source.users[run]
                        guard !restricts || segment!.allows(user: user) else { continue }
                        let group = Int(UInt64(user) - first) * names + source.nameIndex
                        var end = ends[group]
                        for event in source.first(of: run)..<Int(source.ends[run])
                        where filtered ? keyMatches[source.keyMatches + Int(source.keyIndexes[event])] : true {
                            if plain {
                                events[end] = named &+ Int64(source.times[event]) &<< FunnelCounter.stepBits
                                end += 1
                                continue
                            }
                            let log = logs.dayLogs[source.log]
                            let entry = BucketLog.Entry(
                                user: user, offset: 0, name: source.name, key: log.keys[Int(source.keyIndexes[event])],
                                screen: log.screens[Int(source.screenIndexes[event])])
                            let steps = matcher.steps(of: entry)
                            guard steps != 0 else { continue }
                            if breakdown, steps & 1 != 0 { values[end] = matcher.value(of: entry) }
                            events[end] = start + Int64(source.times[event]) << FunnelCounter.stepBits | Int64(steps)
                            end += 1
                        }
                        ends[group] = end
                    }
                }
            }
        }

        /// Counts one user's chains, from their groups of events from `groups`, adding their
        /// shortest times to its scratch's durations: per breakdown value of their first-step events, or
        /// once without a breakdown.
        private func countUser(groups: Int) {
            let (events, values, firsts, ends) = (scratch.events.base, scratch.values.base, scratch.firsts.base, scratch.ends.base)
            guard let name = counter.stepNames[0], ends[groups + name] > firsts[groups + name] else { return }
            guard breakdown else {
                countChains(groups: groups, value: nil)
                return
            }
            // The user's values, each counted once: a user has one or a few.
            var seen: [Int32] = []
            for index in firsts[groups + name]..<ends[groups + name] where events[index] & 1 != 0 && !seen.contains(values[index]) {
                seen.append(values[index])
                countChains(groups: groups, value: values[index])
            }
        }

        /// Counts one user's chains whose first-step event has breakdown value `value` (any,
        /// if `nil`), step by step: the chains reaching step k + 1 are the events of step
        /// k + 1 with a chain reaching step k strictly before them whose latest start is
        /// within the window. Each group is in time order, so each step is one merge of two
        /// ordered lists.
        ///
        /// The chains of a step come in time order with their latest starts in order too (an
        /// event's is the latest of the chains before it), so an event's latest start is the
        /// start of the last chain strictly before it. The merge finds that chain by comparing
        /// the next four chains at once and counting those earlier, without a branch: with
        /// a loop over the chains up to each event, whose end the processor mispredicted, the
        /// 30-day, 4-step funnel of the 20,000-user fixture took 4.81-4.99 ms p50, against
        /// 4.28-4.57 (two chains at once: 5.20-5.63; eight: 4.55-4.68; one merge over both
        /// lists without a branch: 5.17-5.36; a search by halves per event: 5.56-5.64).
        /// Whether an event extends a chain is found without a branch too: with `&&`, 3.64–3.83 ms
        /// against 3.16–3.51.
        private func countChains(groups: Int, value: Int32?) {
            let (events, values, firsts, ends, window) = (
                scratch.events.base, scratch.values.base, scratch.firsts.base, scratch.ends.base, counter.window
            )
            var (previous, current) = (scratch.previous.base, scratch.current.base)
            guard let name = counter.stepNames[0] else { return }
            // The chains from index 1, after one that every event follows.
            previous[0] = (.min, FunnelCounter.none)
            var reaching = 0
            for index in firsts[groups + name]..<ends[groups + name] {
                let time = events[index] >> FunnelCounter.stepBits
                previous[reaching + 1] = (time, time)
                let matches = events[index] & 1 != 0 && starts.contains(time) && (value == nil || values[index] == value)
                reaching += matches ? 1 : 0
            }
            guard reaching > 0 else { return }
            let row = Int(value ?? 0) * counter.steps
            scratch.durations[row].append(0)
            for step in 1..<counter.steps {
                guard let name = counter.stepNames[step] else { return }
                // Four chains after the last that no event follows, for the four compared.
                for sentinel in 1...4 { previous[reaching + sentinel] = (.max, FunnelCounter.none) }
                current[0] = (.min, FunnelCounter.none)
                // The chains before `reached` are strictly earlier than the event.
                var (reached, extended, shortest) = (1, 0, Int64.max)
                for index in firsts[groups + name]..<ends[groups + name] {
                    let event = events[index]
                    let time = event >> FunnelCounter.stepBits
                    var taken: Int
                    repeat {
                        let chains = previous + reached
                        taken =
                            (chains[0].time < time ? 1 : 0) &+ (chains[1].time < time ? 1 : 0) &+ (chains[2].time < time ? 1 : 0)
                            &+ (chains[3].time < time ? 1 : 0)
                        reached &+= taken
                    } while taken == 4
                    let latest = previous[reached &- 1].start
                    current[extended &+ 1] = (time, latest)
                    // No latest start is below `none`, so the difference does not overflow.
                    let elapsed = time &- latest
                    let extends = Int((event >> step) & 1) & (elapsed <= window ? 1 : 0)
                    extended &+= extends
                    shortest = min(shortest, extends != 0 ? elapsed : .max)
                }
                guard extended > 0 else { return }
                scratch.durations[row + step].append(shortest)
                swap(&previous, &current)
                reaching = extended
            }
        }
    }

    /// The memory one thread counts blocks of users in, kept from one funnel to the next.
    ///
    /// A funnel that allocated its buffers afresh faulted their pages in every time (6% of its
    /// time in a profile), and the lists of times grew from empty: alternating the two builds,
    /// the 30-day, 4-step funnel of the 20,000-user fixture took 4.04–4.22 ms p50 allocating
    /// and 3.58–3.73 with a pool. The pool keeps two scratches, one funnel's, each within
    /// ``pooledBytes``: 16 MiB at most live as long as the store.
    final class Scratch: @unchecked Sendable {
        // Unchecked: one thread uses a scratch at a time, between taking and recycling it.
        /// The block's events, grouped by user, then name: each group in time order.
        @exclusivity(unchecked) fileprivate var events = PlainBuffer<Event>()
        /// With a breakdown, each first-step event's value, beside it in `events`.
        @exclusivity(unchecked) var values = PlainBuffer<Int32>()
        /// Per group (user of the block, then name), where its events start in `events`, then
        /// where they end.
        @exclusivity(unchecked) var firsts = PlainBuffer<Int>()
        @exclusivity(unchecked) var ends = PlainBuffer<Int>()
        /// The chains reaching the step before, and those reaching this step: each as the time
        /// it reached the step and the latest first-step time it can start from, after one
        /// chain earlier than any and with room for four later than any (see `countChains`).
        @exclusivity(unchecked) var previous = PlainBuffer<(time: Int64, start: Int64)>()
        @exclusivity(unchecked) var current = PlainBuffer<(time: Int64, start: Int64)>()
        /// Per breakdown value, then step, each user's shortest time in milliseconds; lists
        /// past those of the funnel are left from earlier ones.
        @exclusivity(unchecked) var durations: [Durations] = []

        /// Each user's shortest time to one step, in milliseconds, in plain memory: as a class
        /// holding an array, each time added retained and released the class, which took 9%
        /// of the 30-day funnel.
        struct Durations {
            private(set) var buffer = PlainBuffer<Int64>()
            private(set) var count = 0

            /// The times, to reorder in place.
            var times: UnsafeMutableBufferPointer<Int64> { UnsafeMutableBufferPointer(start: buffer.base, count: count) }

            @inline(__always)
            mutating func append(_ time: Int64) {
                buffer.grow(to: count + 1, keeping: count)
                buffer.base[count] = time
                count += 1
            }

            mutating func append(contentsOf other: Durations) {
                buffer.grow(to: count + other.count, keeping: count)
                (buffer.base + count).update(from: other.buffer.base, count: other.count)
                count += other.count
            }

            mutating func removeAll() { count = 0 }
        }

        /// The most scratches the pool keeps.
        static let pooled = 2
        /// The most memory a pooled scratch holds: a larger one is freed. A funnel of the
        /// 200,000-user fixture takes 6.4 MB of times.
        static let pooledBytes = 8 << 20
        private static let pool = Locked<[Scratch]>([])

        /// A scratch from the pool, or a new one.
        static func taken() -> Scratch { pool.withLock { $0.popLast() } ?? Scratch() }

        /// Gives `scratch` back to the pool, unless the pool is full or it holds more than
        /// ``pooledBytes``.
        static func recycle(_ scratch: Scratch) {
            guard scratch.bytes <= pooledBytes else { return }
            pool.withLock { if $0.count < pooled { $0.append(scratch) } }
        }

        /// The memory of each scratch in the pool.
        static var pooledSizes: [Int] { pool.withLock { $0.map(\.bytes) } }

        /// The memory its buffers hold.
        var bytes: Int {
            8 * (events.capacity + firsts.capacity + ends.capacity) + 4 * values.capacity + 16 * (previous.capacity + current.capacity)
                + durations.reduce(0) { $0 + 8 * $1.buffer.capacity + 16 }
        }

        /// Empties the first `count` duration lists, keeping their memory, and makes sure there are
        /// that many.
        func clear(durations count: Int) {
            while durations.count < count { durations.append(Durations()) }
            for index in 0..<count { durations[index].removeAll() }
        }

        deinit {
            events.free()
            values.free()
            firsts.free()
            ends.free()
            previous.free()
            current.free()
            for list in durations { list.buffer.free() }
        }
    }

    /// The median of `times`, which it reorders; `nil` if empty. Selects the middle instead of
    /// sorting: sorting each step's 20,000 times took a millisecond of a 30-day funnel.
    static func median(_ times: UnsafeMutableBufferPointer<Int64>) -> Double? {
        guard !times.isEmpty else { return nil }
        let middle = times.count / 2
        let upper = select(middle, in: times)
        guard times.count % 2 == 0 else { return Double(upper) }
        // Everything before `middle` is now at most `upper`: the other middle is their largest.
        return (Double(times[..<middle].max() ?? upper) + Double(upper)) / 2
    }

    /// The element of `times` that would be at `index` sorted; after it, the ones before
    /// `index` are at most it, the ones after at least it.
    private static func select(_ index: Int, in times: UnsafeMutableBufferPointer<Int64>) -> Int64 {
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

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
        /// Each day log whose name matches a step, by day then name.
        private(set) var sources: [Source] = []
        /// Per source, from its ``Source/keyMatches``, per entry of its key dictionary whether
        /// the segment's event conditions hold.
        private(set) var keyMatches: [Bool] = []

        /// The day logs `dayLogs` of `names` (`label` ids) over the UTC days `days`, a day log
        /// for each name and day in that order, where `steps` gives the bits of the steps a
        /// name matches and `segment` (if any) which segment keys match.
        init(_ dayLogs: [DayLog], days: [Int64], names: [Int64], steps: (Int64) -> UInt16, segment: SegmentMatcher?) {
            self.dayLogs = dayLogs
            for (dayIndex, day) in days.enumerated() {
                for (nameIndex, name) in names.enumerated() {
                    let log = dayLogs[dayIndex * names.count + nameIndex]
                    let named = steps(name)
                    guard named != 0, !log.users.isEmpty else { continue }
                    sources.append(
                        Source(
                            users: UnsafeBufferPointer(log.users), ends: UnsafeBufferPointer(log.ends), times: UnsafeBufferPointer(log.times),
                            keyIndexes: UnsafeBufferPointer(log.keyIndexes), screenIndexes: UnsafeBufferPointer(log.screenIndexes),
                            start: day * Bucket.perDay * Bucket.milliseconds, steps: named, name: name, log: dayIndex * names.count + nameIndex,
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
        func index(of user: UInt32, from index: Int) -> Int {
            var (low, high) = (index, users.count)
            while low < high {
                let middle = (low + high) / 2
                if users[middle] < user { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    /// An event that matches at least one step.
    private struct Event {
        /// The bits below a time in ``timeAndSteps``.
        static let stepBits: Int64 = 10
        /// Its millisecond from the first day's start, shifted left by ``stepBits``, and the
        /// bits of the steps it matches (bit 0: the first step).
        var timeAndSteps: Int64
        /// The breakdown value's index (0 without a breakdown); read on first-step events only.
        var value: Int32

        var time: Int64 { timeAndSteps >> Self.stepBits }
        var steps: UInt16 { UInt16(truncatingIfNeeded: timeAndSteps & (1 << Self.stepBits - 1)) }
    }

    /// The result: per breakdown value, per step, the users who reached it and the median of
    /// their shortest times in milliseconds (`nil` for the first step or nobody).
    typealias Counts = [[(users: Int, medianMilliseconds: Double?)]]

    /// The number of steps.
    let steps: Int
    /// The longest a chain takes from its first-step event, in milliseconds.
    let window: Int64
    /// The times of the first-step events that start a chain, in milliseconds since 1970.
    let starts: Range<Int64>
    /// The number of breakdown values (1 without a breakdown).
    let values: Int

    private static let none = Int64.min
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
        let durations = Locked([[[Int64]]](repeating: Array(repeating: [], count: steps), count: values))
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            var counted = [[[Int64]]](repeating: Array(repeating: [], count: steps), count: values)
            var block = Block(counter: self, logs: logs, base: base, matcher: matcher, segment: segment, breakdown: breakdown)
            for index in stride(from: thread, to: blocks, by: 2) {
                // The last block takes every user after it: the count of users only sizes them.
                let end = index == blocks - 1 ? UInt64(UInt32.max) + 1 : UInt64(index + 1) << shift
                block.count(UInt64(index) << shift..<end, into: &counted)
            }
            durations.withLock { durations in
                for value in counted.indices {
                    for step in counted[value].indices { durations[value][step] += counted[value][step] }
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

    /// One thread's storage for counting blocks of users, reused from one to the next.
    private struct Block {
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
        var cursors: [Int]
        /// Per source, the users of the block.
        var slices: [Range<Int>]
        var byUser: [Event] = []
        /// Per user of the block, where their events start in `byUser`, then where they end.
        var firsts: [Int] = []
        var ends: [Int] = []
        var state: UserState
        /// Per step, the latest start and the shortest time: a user's chains without a breakdown.
        var chain: [(latestStart: Int64, shortest: Int64)]

        init(counter: FunnelCounter, logs: Logs, base: Int64, matcher: FunnelMatcher, segment: SegmentMatcher?, breakdown: Bool) {
            (self.counter, self.logs, self.base, self.matcher, self.segment, self.breakdown) = (counter, logs, base, matcher, segment, breakdown)
            starts = (counter.starts.lowerBound - base)..<(counter.starts.upperBound - base)
            cursors = Array(repeating: 0, count: logs.sources.count)
            slices = Array(repeating: 0..<0, count: logs.sources.count)
            state = UserState(steps: counter.steps)
            chain = Array(repeating: (FunnelCounter.none, .max), count: counter.steps)
        }

        /// Counts the users numbered in `users`, adding their shortest times to `durations`.
        mutating func count(_ users: Range<UInt64>, into durations: inout [[[Int64]]]) {
            let first = users.lowerBound
            var last: UInt64?
            for (index, source) in logs.sources.enumerated() {
                let lower = source.index(of: UInt32(first), from: cursors[index])
                var upper = lower
                if users.upperBound > UInt32.max {
                    upper = source.users.count
                } else {
                    upper = source.index(of: UInt32(users.upperBound), from: lower)
                }
                (slices[index], cursors[index]) = (lower..<upper, upper)
                if upper > lower { last = max(last ?? 0, UInt64(source.users[upper - 1])) }
            }
            guard let last else { return }
            let restricts = segment?.restrictsUsers ?? false
            let count = Int(last - first) + 1
            firsts.removeAll(keepingCapacity: true)
            firsts.append(contentsOf: repeatElement(0, count: count + 1))
            for (index, source) in logs.sources.enumerated() {
                for run in slices[index] where !restricts || segment!.allows(user: source.users[run]) {
                    firsts[Int(UInt64(source.users[run]) - first) + 1] += Int(source.ends[run]) - source.first(of: run)
                }
            }
            for index in firsts.indices.dropFirst() { firsts[index] += firsts[index - 1] }
            // Taken out of `self` while their buffers are written, and put back after.
            var (byUser, ends): ([Event], [Int]) = ([], [])
            swap(&byUser, &self.byUser)
            swap(&ends, &self.ends)
            defer {
                swap(&byUser, &self.byUser)
                swap(&ends, &self.ends)
            }
            if byUser.count < firsts[count] { byUser = Array(repeating: Event(timeAndSteps: 0, value: 0), count: firsts[count]) }
            ends.removeAll(keepingCapacity: true)
            ends.append(contentsOf: firsts.dropLast())
            let firsts = firsts
            let conditional = matcher.conditionalSteps
            let filtered = segment != nil
            logs.keyMatches.withUnsafeBufferPointer { keyMatches in
                byUser.withUnsafeMutableBufferPointer { byUser in
                    ends.withUnsafeMutableBufferPointer { ends in
                        for (index, source) in logs.sources.enumerated() {
                            let start = (source.start - base) << Event.stepBits
                            // Most day logs need neither an entry nor a value: their events are
                            // only checked against the segment's keys, if it has a filter.
                            let plain = source.steps & conditional == 0 && !(breakdown && source.steps & 1 != 0)
                            let named = start | Int64(source.steps)
                            for run in slices[index] {
                                let user = source.users[run]
                                guard !restricts || segment!.allows(user: user) else { continue }
                                let slot = Int(UInt64(user) - first)
                                var end = ends[slot]
                                for event in source.first(of: run)..<Int(source.ends[run])
                                where filtered ? keyMatches[source.keyMatches + Int(source.keyIndexes[event])] : true {
                                    if plain {
                                        byUser[end] = Event(timeAndSteps: named &+ Int64(source.times[event]) &<< Event.stepBits, value: 0)
                                        end += 1
                                        continue
                                    }
                                    let log = logs.dayLogs[source.log]
                                    let entry = BucketLog.Entry(
                                        user: user, offset: 0, name: source.name, key: log.keys[Int(source.keyIndexes[event])],
                                        screen: log.screens[Int(source.screenIndexes[event])])
                                    let steps = matcher.steps(of: entry)
                                    guard steps != 0 else { continue }
                                    let value = breakdown && steps & 1 != 0 ? matcher.value(of: entry) : 0
                                    byUser[end] = Event(
                                        timeAndSteps: start + Int64(source.times[event]) << Event.stepBits | Int64(steps), value: value)
                                    end += 1
                                }
                                ends[slot] = end
                            }
                        }
                    }
                    for slot in 0..<count where ends[slot] > firsts[slot] {
                        let events = UnsafeMutableBufferPointer(rebasing: byUser[firsts[slot]..<ends[slot]])
                        Self.sort(events)
                        if counter.values == 1 {
                            counter.count(UnsafeBufferPointer(events), starts: starts, state: &chain, into: &durations[0])
                        } else {
                            counter.count(UnsafeBufferPointer(events), starts: starts, state: &state, into: &durations)
                        }
                    }
                }
            }
        }

        /// Puts one user's events, in order of day and within a day of name, in time order.
        private static func sort(_ events: UnsafeMutableBufferPointer<Event>) {
            var events = events
            // Most users have a few events of a funnel's names a day, which an insertion sort
            // orders in place; one with many more must not take quadratic time.
            guard events.count <= 64 else {
                events.sort { $0.timeAndSteps < $1.timeAndSteps }
                return
            }
            for index in events.indices.dropFirst() {
                let event = events[index]
                var position = index
                while position > events.startIndex, events[position - 1].timeAndSteps > event.timeAndSteps {
                    events[position] = events[position - 1]
                    position -= 1
                }
                events[position] = event
            }
        }
    }

    /// One user's chains: per breakdown value met on their first-step events, the latest
    /// start and the shortest time of each step. Kept between users to reuse its storage.
    private struct UserState {
        let steps: Int
        var values: [Int32] = []
        var latestStart: [Int64] = []
        var shortest: [Int64] = []
        /// Changes decided at the current millisecond, applied when it passes.
        var pending: [(slot: Int, step: Int, start: Int64)] = []

        init(steps: Int) { self.steps = steps }

        mutating func reset() {
            values.removeAll(keepingCapacity: true)
            latestStart.removeAll(keepingCapacity: true)
            shortest.removeAll(keepingCapacity: true)
        }

        /// The slot of `value`, made if missing.
        mutating func slot(of value: Int32) -> Int {
            if let slot = values.firstIndex(of: value) { return slot }
            values.append(value)
            latestStart.append(contentsOf: repeatElement(FunnelCounter.none, count: steps))
            shortest.append(contentsOf: repeatElement(.max, count: steps))
            return values.count - 1
        }

        mutating func apply(at time: Int64) {
            for (slot, step, start) in pending {
                let index = slot * steps + step
                latestStart[index] = max(latestStart[index], start)
                shortest[index] = min(shortest[index], time - start)
            }
            pending.removeAll(keepingCapacity: true)
        }
    }

    /// Counts one user's events, in time order, without a breakdown, adding their shortest
    /// times to `durations`: the counting below with one value, its state in one array and no
    /// list of pending changes unless events share a millisecond.
    ///
    /// An event's steps are taken from the last, so that a step it completes does not feed
    /// the next step in the same event; events sharing a millisecond read what came before it.
    private func count(
        _ events: UnsafeBufferPointer<Event>, starts: Range<Int64>, state chain: inout [(latestStart: Int64, shortest: Int64)],
        into durations: inout [[Int64]]
    ) {
        chain.withUnsafeMutableBufferPointer { chain in
            for step in chain.indices { chain[step] = (Self.none, .max) }
            /// Takes `event`'s steps, reading the chain's latest starts from `before`.
            func take(_ event: Event, before: (Int) -> Int64) {
                let time = event.time
                var steps = event.steps
                while steps != 0 {
                    let step = 15 - steps.leadingZeroBitCount
                    steps &= ~(1 << step)
                    if step == 0 {
                        if starts.contains(time) { chain[0] = (time, 0) }
                    } else {
                        let start = before(step - 1)
                        if start != Self.none, time - start <= window {
                            chain[step] = (max(chain[step].latestStart, start), min(chain[step].shortest, time - start))
                        }
                    }
                }
            }
            var index = events.startIndex
            while index < events.endIndex {
                let time = events[index].time
                guard index + 1 < events.endIndex, events[index + 1].time == time else {
                    take(events[index]) { chain[$0].latestStart }
                    index += 1
                    continue
                }
                // Events sharing a millisecond read the chain as it was before it.
                let before = chain.map(\.latestStart)
                while index < events.endIndex, events[index].time == time {
                    take(events[index]) { before[$0] }
                    index += 1
                }
            }
            for step in chain.indices where chain[step].latestStart != Self.none { durations[step].append(chain[step].shortest) }
        }
    }

    /// Counts one user's events, in time order, adding their shortest times to `durations`.
    private func count(
        _ events: UnsafeBufferPointer<Event>, starts: Range<Int64>, state: inout UserState, into durations: inout [[[Int64]]]
    ) {
        state.reset()
        var time = events.first!.time
        for event in events {
            if event.time != time {
                state.apply(at: time)
                time = event.time
            }
            if event.steps & ~1 != 0 {
                for slot in state.values.indices {
                    var later = event.steps & ~1
                    while later != 0 {
                        let step = later.trailingZeroBitCount
                        later &= later - 1
                        let start = state.latestStart[slot * steps + step - 1]
                        if start != Self.none, event.time - start <= window { state.pending.append((slot, step, start)) }
                    }
                }
            }
            if event.steps & 1 != 0, starts.contains(event.time) {
                state.pending.append((state.slot(of: event.value), 0, event.time))
            }
        }
        state.apply(at: time)
        for (slot, value) in state.values.enumerated() {
            for step in 0..<steps where state.latestStart[slot * steps + step] != Self.none {
                durations[Int(value)][step].append(state.shortest[slot * steps + step])
            }
        }
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

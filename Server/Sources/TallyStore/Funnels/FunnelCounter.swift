import Dispatch
import Locking

/// Counts a funnel user by user: the computation behind
/// ``EventStore/funnel(app:steps:from:to:window:timeZone:filter:breakdown:)``.
///
/// Two passes, each on two threads. The first reads the step names' sections of the logs in
/// order, each thread half of the buckets, and appends each matching event to the partition
/// of its user (consecutive user numbers, about 16,384 events a partition). The second counts
/// the partitions, alternately on each thread: it groups a partition's events by user with a
/// counting sort (each thread's part in turn, so each user's events come in order of their
/// bucket), puts each user's in time order and counts them in one pass, all within the core's
/// cache. Every log is read once, front to back. Gathering every event first and grouping
/// them over all users scattered them into 19 MB (87 ms for a 30-day funnel of the
/// 20,000-user fixture on two threads); walking every section once per block of users
/// instead missed the cache at each of their runs (46 ms); partitions take 23 ms, about
/// 10 to partition the 755,000 events and 10 to count them.
///
/// For each step k and breakdown value, the pass keeps the latest first-step time of a chain
/// reaching step k so far: a later event of step k + 1 within the window of that time
/// extends it, and no other chain could where that one cannot. So it finds whether the user
/// reaches each step and, for each, their shortest time from a first-step event (an event
/// completing step k at time t is best served by the latest start). Events at one
/// millisecond see only what came strictly before them.
struct FunnelCounter {
    /// The logs a funnel reads, in bucket order.
    struct Logs: @unchecked Sendable {
        // Unchecked: read only once made; its sources point into the bytes of `logs`, which it keeps.
        /// Each log and, per entry of its key dictionary, whether the segment's event
        /// conditions hold.
        let logs: [(log: BucketLogCache.Log, keyMatches: [Bool])]
        /// Each section (a name in a bucket) whose name matches a step, in bucket order.
        private(set) var sources: [Source] = []
        /// Every log's `keyMatches`, one after the other.
        private(set) var keyMatches: [Bool] = []

        /// The sections of `logs`, whose buckets start at `starts` (in milliseconds), where
        /// `steps` gives the bits of the steps a name (a `label` id) matches.
        init(_ logs: [(start: Int64, log: BucketLogCache.Log, keyMatches: [Bool])], steps: (Int64) -> UInt16) {
            self.logs = logs.map { ($0.log, $0.keyMatches) }
            for (index, (start, log, keyMatches)) in logs.enumerated() {
                for section in log.view.sections {
                    let named = steps(section.name)
                    guard named != 0 else { continue }
                    sources.append(
                        Source(
                            columns: log.view.columns, runs: log.view.runs(of: section), events: section.events.count, start: start,
                            steps: named, name: section.name, log: index, keyMatches: self.keyMatches.count))
                }
                self.keyMatches += keyMatches
            }
        }
    }

    /// A section of a log read through plain values (no reference counting where every event
    /// is read); its log's bytes live as long as the ``Logs``.
    struct Source {
        let columns: BucketLog.View.Columns
        /// Its runs, unread.
        let runs: BucketLog.View.Runs
        /// Its number of events.
        let events: Int
        /// The bucket's first millisecond.
        let start: Int64
        /// The bits of the steps its name matches, before their conditions.
        let steps: UInt16
        /// The name's `label` id.
        let name: Int64
        /// Its log's index in ``Logs/logs``.
        let log: Int
        /// Where its log's entries start in ``Logs/keyMatches``.
        let keyMatches: Int
    }

    /// An event that matches at least one step.
    private struct Event {
        /// The bits below a time in ``timeAndSteps``.
        static let stepBits: Int64 = 10
        /// Its millisecond from the first bucket's start, shifted left by ``stepBits``, and the
        /// bits of the steps it matches (bit 0: the first step): 16 bytes an event.
        var timeAndSteps: Int64
        var user: UInt32
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
    /// About the events a partition takes.
    private static let eventsPerPartition = 16_384

    /// Counts the events of `logs`, of about `users` users (which sets the partitions).
    ///
    /// An event counts when its key matches (``Logs/keyMatches``), `segment` allows its user,
    /// and `matcher` finds it matches a step; with `breakdown`, its first-step events take
    /// their value from `matcher`.
    ///
    /// - Throws: ``DamagedRollup`` if a log's runs do not decode.
    func count(_ logs: Logs, users: Int, matcher: FunnelMatcher, segment: SegmentMatcher?, breakdown: Bool) throws -> Counts {
        let events = logs.sources.reduce(0) { $0 + $1.events }
        // A power of two of users a partition, so that a user's is a shift away: dividing
        // took a third of the first pass.
        let wanted = max(2, (events + Self.eventsPerPartition - 1) / Self.eventsPerPartition)
        let shift = Int.bitWidth - (max(1, (users + wanted - 1) / wanted) - 1).leadingZeroBitCount
        let partitions = max(1, (users + (1 << shift) - 1) >> shift)
        let base = logs.sources.first?.start ?? 0
        // The first thread takes the sources up to half of the events, the second the rest.
        var half = 0
        var taken = 0
        while half < logs.sources.count, taken < events / 2 {
            taken += logs.sources[half].events
            half += 1
        }
        let halves = [0..<half, half..<logs.sources.count]
        let parts = Locked<[Partitioned?]>([nil, nil])
        let failure = Locked<DamagedRollup?>(nil)
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            do throws(DamagedRollup) {
                let partitioned = try partition(
                    logs, halves[thread], into: partitions, shift: shift, base: base, matcher: matcher, segment: segment,
                    breakdown: breakdown)
                parts.withLock { $0[thread] = partitioned }
            } catch {
                failure.withLock { $0 = error }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        let partitioned = parts.withLock { $0.map { $0! } }
        let durations = Locked([[[Int64]]](repeating: Array(repeating: [], count: steps), count: values))
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            var counted = [[[Int64]]](repeating: Array(repeating: [], count: steps), count: values)
            var partition = Partition(counter: self, starts: (starts.lowerBound - base)..<(starts.upperBound - base))
            for index in stride(from: thread, to: partitions, by: 2) {
                partition.count(partitioned[0][index], partitioned[1][index], from: index << shift, into: &counted)
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

    /// One thread's events, by partition, in one buffer it owns.
    private final class Partitioned: @unchecked Sendable {
        // Unchecked: written by one thread, then only read once handed over.
        let buffer: UnsafeMutableBufferPointer<Event>
        /// Where each partition's events start in `buffer`, and where they end.
        let starts: [Int]
        var ends: [Int]

        init(counts: [Int]) {
            var starts = [0]
            for count in counts { starts.append(starts.last! + count) }
            buffer = .allocate(capacity: starts.last!)
            self.starts = starts
            ends = Array(starts.dropLast())
        }

        deinit { buffer.deallocate() }

        /// The events of partition `index`.
        subscript(index: Int) -> UnsafeBufferPointer<Event> {
            UnsafeBufferPointer(rebasing: buffer[starts[index]..<ends[index]])
        }
    }

    /// Each event of `sources` that counts, by the partition of its user (`1 << shift` users
    /// a partition, `partitions` partitions).
    ///
    /// Reads the runs twice: first their event counts, to size each partition's part of one
    /// buffer, then their events, written in place. Appending to an array per partition spent
    /// a quarter of the pass checking and growing the arrays.
    private func partition(
        _ logs: Logs, _ sources: Range<Int>, into partitions: Int, shift: Int, base: Int64, matcher: FunnelMatcher,
        segment: SegmentMatcher?, breakdown: Bool
    ) throws(DamagedRollup) -> Partitioned {
        let conditional = matcher.conditionalSteps
        let restricts = segment?.restrictsUsers ?? false
        let last = partitions - 1
        var counts = [Int](repeating: 0, count: partitions)
        for source in logs.sources[sources] {
            var runs = source.runs
            while let (user, run) = try runs.next() {
                if !restricts || segment!.allows(user: user) { counts[min(Int(user) >> shift, last)] += run.count }
            }
        }
        let partitioned = Partitioned(counts: counts)
        let filtered = segment != nil
        try logs.keyMatches.withUnsafeBufferPointer { keyMatches throws(DamagedRollup) in
            try partitioned.ends.withUnsafeMutableBufferPointer { ends throws(DamagedRollup) in
                let buffer = partitioned.buffer
                for source in logs.sources[sources] {
                    let columns = source.columns
                    let start = (source.start - base) << Event.stepBits
                    // Most sections need neither an entry nor a value: their events are only
                    // checked against the segment's keys, if it has a filter, and written.
                    let plain = source.steps & conditional == 0 && !(breakdown && source.steps & 1 != 0)
                    let named = start | Int64(source.steps)
                    var runs = source.runs
                    while let (user, run) = try runs.next() {
                        guard !restricts || segment!.allows(user: user) else { continue }
                        let partition = min(Int(user) >> shift, last)
                        var end = ends[partition]
                        for event in run where filtered ? keyMatches[source.keyMatches + columns.keyIndex(at: event)] : true {
                            if plain {
                                buffer[end] = Event(timeAndSteps: named &+ Int64(columns.offset(at: event)) &<< Event.stepBits, user: user, value: 0)
                                end += 1
                                continue
                            }
                            let view = logs.logs[source.log].log.view
                            let entry = BucketLog.Entry(
                                user: user, offset: columns.offset(at: event), name: source.name,
                                key: view.keys[columns.keyIndex(at: event)], screen: view.screens[columns.screenIndex(at: event)])
                            let steps = matcher.steps(of: entry)
                            guard steps != 0 else { continue }
                            let value = breakdown && steps & 1 != 0 ? matcher.value(of: entry) : 0
                            buffer[end] = Event(
                                timeAndSteps: start + Int64(columns.offset(at: event)) << Event.stepBits | Int64(steps), user: user, value: value)
                            end += 1
                        }
                        ends[partition] = end
                    }
                }
            }
        }
        return partitioned
    }

    /// One thread's storage for counting partitions, reused from one to the next.
    private struct Partition {
        let counter: FunnelCounter
        /// The first-step times that start a chain, from the first bucket's start.
        let starts: Range<Int64>
        var byUser: [Event] = []
        var ends: [Int] = []
        var state: UserState
        /// Per step, the latest start and the shortest time: a user's chains without a breakdown.
        var chain: [(latestStart: Int64, shortest: Int64)]

        init(counter: FunnelCounter, starts: Range<Int64>) {
            (self.counter, self.starts) = (counter, starts)
            state = UserState(steps: counter.steps)
            chain = Array(repeating: (FunnelCounter.none, .max), count: counter.steps)
        }

        /// Counts the events of `earlier` then `later` (a partition's events from each half
        /// of the buckets, of users numbered from `first`) user by user, adding their shortest
        /// times to `durations`.
        mutating func count(
            _ earlier: UnsafeBufferPointer<Event>, _ later: UnsafeBufferPointer<Event>, from first: Int, into durations: inout [[[Int64]]]
        ) {
            guard !earlier.isEmpty || !later.isEmpty else { return }
            let last = Int(max(earlier.lazy.map(\.user).max() ?? 0, later.lazy.map(\.user).max() ?? 0))
            // A stable counting sort by user keeps each user's events in order of their
            // bucket; an insertion sort then orders each user's, within a bucket by name, by time.
            ends.removeAll(keepingCapacity: true)
            ends.append(contentsOf: repeatElement(0, count: last - first + 2))
            for event in earlier { ends[Int(event.user) - first + 1] += 1 }
            for event in later { ends[Int(event.user) - first + 1] += 1 }
            for index in ends.indices.dropFirst() { ends[index] += ends[index - 1] }
            let count = earlier.count + later.count
            if byUser.count < count { byUser = Array(repeating: Event(timeAndSteps: 0, user: 0, value: 0), count: count) }
            byUser.withUnsafeMutableBufferPointer { byUser in
                for events in [earlier, later] {
                    for event in events {
                        byUser[ends[Int(event.user) - first]] = event
                        ends[Int(event.user) - first] += 1
                    }
                }
                // `ends[user]` is now where the user's events end.
                var start = 0
                for end in ends.dropLast() where end > start {
                    let events = UnsafeMutableBufferPointer(rebasing: byUser[start..<end])
                    for index in events.indices.dropFirst() {
                        let event = events[index]
                        var position = index
                        while position > events.startIndex, events[position - 1].timeAndSteps > event.timeAndSteps {
                            events[position] = events[position - 1]
                            position -= 1
                        }
                        events[position] = event
                    }
                    if counter.values == 1 {
                        counter.count(UnsafeBufferPointer(events), starts: starts, state: &chain, into: &durations[0])
                    } else {
                        counter.count(UnsafeBufferPointer(events), starts: starts, state: &state, into: &durations)
                    }
                    start = end
                }
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

import Dispatch
import Locking

/// Counts a funnel user by user: the computation behind
/// ``EventStore/funnel(app:steps:from:to:window:timeZone:filter:breakdown:)``.
///
/// It walks the logs in bucket order, so that each user's events come in time order without
/// sorting them: in a bucket, the sections of the steps' names each list their users
/// ascending, each user's events in time order, and are merged by user; each user's events of
/// the bucket then extend that user's chains, kept in an array by user number, a user's in one
/// cache line for 4 steps. Two threads split the users in halves: each walks every bucket, the
/// second skipping the runs of the first's users. Partitioning every event by user and then
/// sorting each user's instead took 22 ms for a 30-day funnel of the 20,000-user fixture,
/// half of it moving the 755,000 events; splitting the buckets by time instead gave each
/// thread every user's chains, twice its core's cache, and the walk waited on them.
///
/// For each step k and breakdown value, a user's chains keep the latest first-step time of a
/// chain reaching step k so far: a later event of step k + 1 within the window of that time
/// extends it, and no other chain could where that one cannot. So the walk finds whether the
/// user reaches each step and, for each, their shortest time from a first-step event (an
/// event completing step k at time t is best served by the latest start). Events at one
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
        /// The sources of each bucket that has any, in bucket order.
        private(set) var buckets: [Range<Int>] = []
        /// Every log's `keyMatches`, one after the other.
        private(set) var keyMatches: [Bool] = []

        /// The sections of `logs`, whose buckets start at `starts` (in milliseconds), where
        /// `steps` gives the bits of the steps a name (a `label` id) matches.
        init(_ logs: [(start: Int64, log: BucketLogCache.Log, keyMatches: [Bool])], steps: (Int64) -> UInt16) {
            self.logs = logs.map { ($0.log, $0.keyMatches) }
            for (index, (start, log, keyMatches)) in logs.enumerated() {
                let first = sources.count
                for section in log.view.sections {
                    let named = steps(section.name)
                    guard named != 0 else { continue }
                    sources.append(
                        Source(
                            columns: log.view.columns, runs: log.view.runs(of: section), start: start, steps: named, name: section.name,
                            log: index, keyMatches: self.keyMatches.count))
                }
                if sources.count > first { buckets.append(first..<sources.count) }
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
        /// Its millisecond since 1970.
        var time: Int64
        /// The bits of the steps it matches (bit 0: the first step).
        var steps: UInt16
        /// The breakdown value's index (0 without a breakdown); read on first-step events only.
        var value: Int32
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

    /// Counts the events of `logs` of the users numbered below `users`.
    ///
    /// An event counts when its key matches (``Logs/keyMatches``), `segment` allows its user,
    /// and `matcher` finds it matches a step; with `breakdown`, its first-step events take
    /// their value from `matcher`.
    ///
    /// - Throws: ``DamagedRollup`` if a log's runs do not decode.
    func count(_ logs: Logs, users: Int, matcher: FunnelMatcher, segment: SegmentMatcher?, breakdown: Bool) throws -> Counts {
        let halves = [0..<users / 2, users / 2..<users]
        let durations = Locked([[[Int64]]](repeating: Array(repeating: [], count: steps), count: values))
        let failure = Locked<DamagedRollup?>(nil)
        DispatchQueue.concurrentPerform(iterations: halves.count) { thread in
            do throws(DamagedRollup) {
                var walk = Walk(counter: self, users: halves[thread], breakdown: breakdown)
                try walk.walk(logs, matcher: matcher, segment: segment)
                let found = walk.shortestTimes()
                durations.withLock { durations in
                    for value in found.indices {
                        for step in found[value].indices { durations[value][step] += found[value][step] }
                    }
                }
            } catch {
                failure.withLock { $0 = error }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return durations.withLock { $0 }.map { steps in
            steps.enumerated().map { step, times in
                var times = times
                return (times.count, step > 0 ? Self.median(&times) : nil)
            }
        }
    }

    /// One thread's walk: its users' chains.
    private struct Walk {
        let counter: FunnelCounter
        /// The users it counts.
        let users: Range<Int>
        let steps: Int
        let breakdown: Bool
        /// Per slot, 2 × `steps` numbers: per step, the latest first-step time of a chain
        /// reaching it (``FunnelCounter/none`` for none), then per step the shortest time from a
        /// first step to it (`.max` for none). Without a breakdown, a user's slot is their
        /// number from `users.lowerBound`.
        var chains: [Int64]
        /// With a breakdown, a slot per user and value: each user's first slot (-1 for none),
        /// each slot's next of the same user and its value.
        var firstSlot: [Int32] = []
        var nextSlot: [Int32] = []
        var slotValues: [Int32] = []
        /// Changes decided at the current millisecond, applied when it passes.
        var pending: [(slot: Int, step: Int, start: Int64)] = []
        /// The latest starts before the current millisecond, without a breakdown.
        var before: [Int64]
        /// The current bucket's sections by their next user, and that user's events.
        var cursors: [(runs: BucketLog.View.Runs, user: UInt32, events: Range<Int>, source: Int)] = []
        var events: [Event] = []

        init(counter: FunnelCounter, users: Range<Int>, breakdown: Bool) {
            (self.counter, self.users, steps, self.breakdown) = (counter, users, counter.steps, breakdown)
            before = Array(repeating: FunnelCounter.none, count: steps)
            if breakdown {
                chains = []
                firstSlot = Array(repeating: -1, count: users.count)
            } else {
                chains = []
                chains.reserveCapacity(users.count * 2 * steps)
                for _ in users {
                    chains += repeatElement(FunnelCounter.none, count: steps)
                    chains += repeatElement(.max, count: steps)
                }
            }
        }

        /// Walks the sources of every bucket, user by user within each bucket.
        mutating func walk(_ logs: Logs, matcher: FunnelMatcher, segment: SegmentMatcher?) throws(DamagedRollup) {
            let restricts = segment?.restrictsUsers ?? false
            let (first, end) = (UInt32(clamping: users.lowerBound), UInt32(clamping: users.upperBound))
            for bucket in logs.buckets {
                cursors.removeAll(keepingCapacity: true)
                for source in bucket {
                    var runs = logs.sources[source].runs
                    while let (user, events) = try runs.next() {
                        guard user >= first else { continue }
                        if user < end { cursors.append((runs, user, events, source)) }
                        break
                    }
                }
                while !cursors.isEmpty {
                    var user = UInt32.max
                    for cursor in cursors { user = min(user, cursor.user) }
                    let allowed = !restricts || segment!.allows(user: user)
                    events.removeAll(keepingCapacity: true)
                    var merged = 0
                    var index = 0
                    while index < cursors.count {
                        guard cursors[index].user == user else {
                            index += 1
                            continue
                        }
                        if allowed {
                            gather(
                                cursors[index].events, of: user, from: logs.sources[cursors[index].source], in: logs, matcher: matcher,
                                filtered: segment != nil)
                            merged += 1
                        }
                        if let (next, events) = try cursors[index].runs.next(), next < end {
                            (cursors[index].user, cursors[index].events) = (next, events)
                            index += 1
                        } else {
                            cursors.swapAt(index, cursors.count - 1)
                            cursors.removeLast()
                        }
                    }
                    guard !events.isEmpty else { continue }
                    if merged > 1 { sortEventsByTime() }
                    if breakdown { takeWithValues(of: Int(user - first)) } else { take(slot: Int(user - first)) }
                }
            }
        }

        /// Appends to ``events`` those of `run` (of `user`, in `source`) that count.
        @inline(__always)
        private mutating func gather(_ run: Range<Int>, of user: UInt32, from source: Source, in logs: Logs, matcher: FunnelMatcher, filtered: Bool) {
            let columns = source.columns
            // Most sections need neither an entry nor a value: their events are only checked
            // against the segment's keys, if it has a filter.
            let plain = source.steps & matcher.conditionalSteps == 0 && !(breakdown && source.steps & 1 != 0)
            for event in run where !filtered || logs.keyMatches[source.keyMatches + columns.keyIndex(at: event)] {
                let time = source.start + Int64(columns.offset(at: event))
                guard !plain else {
                    events.append(Event(time: time, steps: source.steps, value: 0))
                    continue
                }
                let view = logs.logs[source.log].log.view
                let entry = BucketLog.Entry(
                    user: user, offset: columns.offset(at: event), name: source.name, key: view.keys[columns.keyIndex(at: event)],
                    screen: view.screens[columns.screenIndex(at: event)])
                let steps = matcher.steps(of: entry)
                guard steps != 0 else { continue }
                events.append(Event(time: time, steps: steps, value: breakdown && steps & 1 != 0 ? matcher.value(of: entry) : 0))
            }
        }

        /// Puts ``events``, a few from each section of a bucket, in time order.
        private mutating func sortEventsByTime() {
            events.withUnsafeMutableBufferPointer { events in
                for index in events.indices.dropFirst() {
                    let event = events[index]
                    var position = index
                    while position > 0, events[position - 1].time > event.time {
                        events[position] = events[position - 1]
                        position -= 1
                    }
                    events[position] = event
                }
            }
        }

        /// Extends the chains of `slot` (a user's, without a breakdown) by ``events``.
        ///
        /// An event's steps are taken from the last, so that a step it completes does not feed
        /// the next step in the same event; events sharing a millisecond read what came before it.
        private mutating func take(slot: Int) {
            let (steps, window, starts) = (self.steps, counter.window, counter.starts)
            let base = slot * 2 * steps
            let events = self.events
            chains.withUnsafeMutableBufferPointer { chains in
                before.withUnsafeMutableBufferPointer { before in
                    /// Takes `event`'s steps, reading the latest starts from `earlier` at `offset`.
                    func take(_ event: Event, earlier: UnsafeMutableBufferPointer<Int64>, at offset: Int) {
                        var bits = event.steps
                        while bits != 0 {
                            let step = 15 - bits.leadingZeroBitCount
                            bits &= ~(1 << step)
                            if step == 0 {
                                if starts.contains(event.time) {
                                    chains[base] = event.time
                                    chains[base + steps] = 0
                                }
                            } else {
                                let start = earlier[offset + step - 1]
                                if start != FunnelCounter.none, event.time - start <= window {
                                    chains[base + step] = max(chains[base + step], start)
                                    chains[base + steps + step] = min(chains[base + steps + step], event.time - start)
                                }
                            }
                        }
                    }
                    var index = 0
                    while index < events.count {
                        let time = events[index].time
                        guard index + 1 < events.count, events[index + 1].time == time else {
                            take(events[index], earlier: chains, at: base)
                            index += 1
                            continue
                        }
                        // Events sharing a millisecond read the chains as they were before it.
                        for step in 0..<steps { before[step] = chains[base + step] }
                        while index < events.count, events[index].time == time {
                            take(events[index], earlier: before, at: 0)
                            index += 1
                        }
                    }
                }
            }
        }

        /// Extends the chains of the user numbered `user` from ``users``'s start by
        /// ``events``, per breakdown value of their first steps.
        private mutating func takeWithValues(of user: Int) {
            var time = events[0].time
            for event in events {
                if event.time != time {
                    apply(at: time)
                    time = event.time
                }
                if event.steps & ~1 != 0 {
                    var slot = Int(firstSlot[user])
                    while slot >= 0 {
                        var later = event.steps & ~1
                        while later != 0 {
                            let step = later.trailingZeroBitCount
                            later &= later - 1
                            let start = chains[slot * 2 * steps + step - 1]
                            if start != FunnelCounter.none, event.time - start <= counter.window { pending.append((slot, step, start)) }
                        }
                        slot = Int(nextSlot[slot])
                    }
                }
                if event.steps & 1 != 0, counter.starts.contains(event.time) {
                    pending.append((slot(of: event.value, for: user), 0, event.time))
                }
            }
            apply(at: time)
        }

        /// The slot of `value` of the user numbered `user` from ``users``'s start, made if missing.
        private mutating func slot(of value: Int32, for user: Int) -> Int {
            var slot = Int(firstSlot[user])
            while slot >= 0 {
                if slotValues[slot] == value { return slot }
                slot = Int(nextSlot[slot])
            }
            let new = slotValues.count
            slotValues.append(value)
            nextSlot.append(firstSlot[user])
            firstSlot[user] = Int32(new)
            chains += repeatElement(FunnelCounter.none, count: steps)
            chains += repeatElement(.max, count: steps)
            return new
        }

        /// Applies the changes decided at the millisecond `time`.
        private mutating func apply(at time: Int64) {
            for (slot, step, start) in pending {
                let index = slot * 2 * steps + step
                chains[index] = max(chains[index], start)
                chains[index + steps] = min(chains[index + steps], time - start)
            }
            pending.removeAll(keepingCapacity: true)
        }

        /// Per breakdown value (one without a breakdown), per step, the shortest time of each
        /// of its users who reached it.
        func shortestTimes() -> [[[Int64]]] {
            var durations = [[[Int64]]](repeating: Array(repeating: [], count: steps), count: counter.values)
            for slot in 0..<chains.count / (2 * steps) {
                let value = breakdown ? Int(slotValues[slot]) : 0
                for step in 0..<steps where chains[(2 * slot + 1) * steps + step] != .max {
                    durations[value][step].append(chains[(2 * slot + 1) * steps + step])
                }
            }
            return durations
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

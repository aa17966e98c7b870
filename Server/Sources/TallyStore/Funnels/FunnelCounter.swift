import Dispatch
import Locking

/// Counts a funnel user by user: the computation behind
/// ``EventStore/funnel(app:steps:from:to:window:timeZone:filter:breakdown:)``.
///
/// Events are gathered as the logs are read (bucket by bucket, each bucket's name by name),
/// then grouped by user with a counting sort, each user's put in time order, and counted in
/// one pass with their state in a few local words, half the users on each of two threads. Counting them in the order the logs hold them, with
/// every user's state in arrays indexed by user, spent most of a 30-day funnel of the
/// 20,000-user fixture waiting for those arrays' cache lines (119 ms).
///
/// For each step k and breakdown value, the pass keeps the latest first-step time of a chain
/// reaching step k so far: a later event of step k + 1 within the window of that time
/// extends it, and no other chain could where that one cannot. So it finds whether the user
/// reaches each step and, for each, their shortest time from a first-step event (an event
/// completing step k at time t is best served by the latest start). Events at one
/// millisecond see only what came strictly before them.
struct FunnelCounter {
    /// An event matching at least one step.
    struct Event {
        /// Milliseconds since 1970.
        var time: Int64
        var user: UInt32
        /// The breakdown value's index (0 without a breakdown); read on first-step events only.
        var value: Int32
        /// The bits of the steps it matches (bit 0: the first step).
        var steps: UInt16
    }

    private let steps: Int
    private let window: Int64
    private let starts: Range<Int64>
    private let values: Int
    private var events: [Event] = []
    /// Per value and step: the shortest times of the users who reached it.
    private var durations: [[[Int64]]]

    private static let none = Int64.min

    /// A counter of `steps` steps whose chains take at most `window` milliseconds from a
    /// first-step event at a time in `starts`, broken down into `values` values (1 without).
    init(steps: Int, window: Int64, starts: Range<Int64>, values: Int) {
        self.steps = steps
        self.window = window
        self.starts = starts
        self.values = values
        durations = Array(repeating: Array(repeating: [], count: steps), count: values)
    }

    /// Adds an event; each user's must come in order of their 15-minute bucket.
    @inline(__always)
    mutating func add(_ event: Event) {
        events.append(event)
    }

    /// Per breakdown value, per step: the users who reached it and the median of their
    /// shortest times in milliseconds (`nil` for the first step or nobody).
    mutating func result() -> [[(users: Int, medianMilliseconds: Double?)]] {
        // A stable counting sort by user keeps each user's events in order of their bucket;
        // an insertion sort then orders each user's, within a bucket by name, by time.
        var firsts = [Int](repeating: 0, count: Int(events.lazy.map(\.user).max() ?? 0) + 2)
        for event in events { firsts[Int(event.user) + 1] += 1 }
        for index in firsts.indices.dropFirst() { firsts[index] += firsts[index - 1] }
        var next = firsts
        let byUser = [Event](unsafeUninitializedCapacity: events.count) { byUser, initialized in
            for event in events {
                (byUser.baseAddress! + next[Int(event.user)]).initialize(to: event)
                next[Int(event.user)] += 1
            }
            for user in firsts.indices.dropLast() where firsts[user] + 1 < firsts[user + 1] {
                let events = UnsafeMutableBufferPointer(rebasing: byUser[firsts[user]..<firsts[user + 1]])
                for index in events.indices.dropFirst() {
                    let event = events[index]
                    var position = index
                    while position > events.startIndex, events[position - 1].time > event.time {
                        events[position] = events[position - 1]
                        position -= 1
                    }
                    events[position] = event
                }
            }
            initialized = events.count
        }
        events = []
        // The users in two halves of about equal events, counted on two threads.
        var split = firsts.count / 2
        if let middle = firsts.firstIndex(where: { $0 >= byUser.count / 2 }) { split = middle }
        let halves = [0..<split, split..<max(split, firsts.count - 1)]
        let results = Locked<[[[[Int64]]]]>([])
        let (counter, starts) = (self, firsts)
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            var durations = [[[Int64]]](repeating: Array(repeating: [], count: counter.steps), count: counter.values)
            var state = UserState(steps: counter.steps)
            byUser.withUnsafeBufferPointer { byUser in
                for user in halves[half] where starts[user] < starts[user + 1] {
                    counter.count(UnsafeBufferPointer(rebasing: byUser[starts[user]..<starts[user + 1]]), state: &state, into: &durations)
                }
            }
            results.withLock { $0.append(durations) }
        }
        for part in results.withLock({ $0 }) {
            for value in part.indices {
                for step in part[value].indices { durations[value][step] += part[value][step] }
            }
        }
        return durations.map { steps in
            steps.enumerated().map { step, times in
                guard step > 0, !times.isEmpty else { return (times.count, nil) }
                let sorted = times.sorted()
                let middle = sorted.count / 2
                let median = sorted.count % 2 == 1 ? Double(sorted[middle]) : Double(sorted[middle - 1] + sorted[middle]) / 2
                return (times.count, median)
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

    /// Counts one user's events, in time order, adding their shortest times to `durations`.
    private func count(_ events: UnsafeBufferPointer<Event>, state: inout UserState, into durations: inout [[[Int64]]]) {
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
}

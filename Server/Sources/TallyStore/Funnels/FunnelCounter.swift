/// Counts a funnel over events met user by user in time order: the scan behind
/// ``EventStore/funnel(app:steps:from:to:window:timeZone:filter:breakdown:)``.
///
/// For each user (and breakdown value) and each step k, it keeps the latest first-step time
/// of a chain reaching step k so far: a later event of step k + 1 within the window of that
/// time extends it, and no other chain could where that one cannot. So one pass over a
/// user's events finds whether they reach each step and, for each, their shortest time from
/// a first-step event (an event completing step k at time t is best served by the latest
/// start). Events at one millisecond see only what came strictly before them.
///
/// Per event, a few array reads: the state of every user lives in flat arrays indexed by
/// slot, one slot per user and breakdown value, so 10 million events cost no allocation.
struct FunnelCounter {
    private let steps: Int
    private let window: Int64
    private let starts: Range<Int64>
    /// Per slot and step: the latest first-step time of a chain reaching the step, or `none`.
    private var latestStart: [Int64] = []
    /// Per slot and step: the shortest time from a first-step event to the step, or `.max`.
    private var shortest: [Int64] = []
    private var slotValue: [Int32] = []
    private var slotNext: [Int32] = []
    /// Per user number: the user's first slot, or -1.
    private var firstSlot: [Int32] = []
    /// Changes decided at the current millisecond, applied when it passes.
    private var pending: [(slot: Int32, step: Int, start: Int64)] = []
    private var current: (user: UInt32, time: Int64)?
    private static let none = Int64.min

    /// A counter of `steps` steps whose chains take at most `window` milliseconds from a
    /// first-step event at a time in `starts`.
    init(steps: Int, window: Int64, starts: Range<Int64>) {
        self.steps = steps
        self.window = window
        self.starts = starts
    }

    /// Adds an event of `user` at `time` that matches the steps whose bits `steps` sets
    /// (bit 0: the first step), with the breakdown value `value` (0 without breakdown).
    /// A user's events must come in time order.
    @inline(__always)
    mutating func add(user: UInt32, time: Int64, steps mask: UInt16, value: Int32) {
        if current?.user != user || current?.time != time {
            flush()
            current = (user, time)
        }
        let index = Int(user)
        if index >= firstSlot.count { firstSlot.append(contentsOf: repeatElement(-1, count: max(index + 1 - firstSlot.count, firstSlot.count))) }
        if mask & ~1 != 0 {
            var slot = firstSlot[index]
            while slot >= 0 {
                let base = Int(slot) * steps
                var later = mask & ~1
                while later != 0 {
                    let step = later.trailingZeroBitCount
                    later &= later - 1
                    guard step < steps else { break }
                    let start = latestStart[base + step - 1]
                    if start != Self.none, time - start <= window { pending.append((slot, step, start)) }
                }
                slot = slotNext[Int(slot)]
            }
        }
        if mask & 1 != 0, starts.contains(time) {
            pending.append((self.slot(user: index, value: value), 0, time))
        }
    }

    /// The slot of `user` and `value`, made if missing.
    private mutating func slot(user: Int, value: Int32) -> Int32 {
        var slot = firstSlot[user]
        while slot >= 0 {
            if slotValue[Int(slot)] == value { return slot }
            slot = slotNext[Int(slot)]
        }
        let new = Int32(slotValue.count)
        slotValue.append(value)
        slotNext.append(firstSlot[user])
        firstSlot[user] = new
        latestStart.append(contentsOf: repeatElement(Self.none, count: steps))
        shortest.append(contentsOf: repeatElement(.max, count: steps))
        return new
    }

    private mutating func flush() {
        guard let time = current?.time else { return }
        for (slot, step, start) in pending {
            let index = Int(slot) * steps + step
            latestStart[index] = max(latestStart[index], start)
            shortest[index] = min(shortest[index], time - start)
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Per breakdown value (0 to `values - 1`), per step: the users who reached it and the
    /// median of their shortest times in milliseconds (`nil` for the first step or nobody).
    mutating func result(values: Int) -> [[(users: Int, medianMilliseconds: Double?)]] {
        flush()
        current = nil
        var durations = [[[Int64]]](repeating: [[Int64]](repeating: [], count: steps), count: values)
        for slot in slotValue.indices {
            let value = Int(slotValue[slot])
            for step in 0..<steps where latestStart[slot * steps + step] != Self.none {
                durations[value][step].append(shortest[slot * steps + step])
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
}

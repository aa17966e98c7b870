import Benchmark
import BitCollections
import SeededRandom
import TallyStore

// UserSet, the rollups' set of user numbers, beside `Set<UInt32>` and swift-collections'
// `BitSet` on the two operations day metrics and retention are made of, with the sizes of the
// benchmark fixtures (measured there):
//   - the day's users as the union of its 96 slot sets: 189 users a slot of 20,000 users
//     (8,400 a day), 467 a slot of 200,000 (40,000 a day);
//   - a retention cell: the size of the intersection of two such day sets.
// Each side starts from its own representation of the slots and days, built before measuring.

/// The slot and day sets of one population, as plain arrays of numbers.
struct Sizes: Sendable {
    let name: String
    let users: Int
    let slots: [[UInt32]]
    let days: [[UInt32]]

    init(name: String, users: Int, perSlot: Int, perDay: Int) {
        var random = SplitMix64(seed: UInt64(users))
        self.name = name
        self.users = users
        slots = (0..<96).map { _ in (0..<perSlot).map { _ in UInt32.random(in: 0..<UInt32(users), using: &random) } }
        days = (0..<2).map { _ in (0..<perDay).map { _ in UInt32.random(in: 0..<UInt32(users), using: &random) } }
    }
}

let populations = [
    Sizes(name: "20k users", users: 20_000, perSlot: 189, perDay: 8_400),
    Sizes(name: "200k users", users: 200_000, perSlot: 467, perDay: 40_000),
]

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .microseconds,
        maxDuration: .seconds(2),
        maxIterations: 10_000
    )

    for sizes in populations {
        let userSlots = sizes.slots.map { UserSet($0) }
        let plainSlots = sizes.slots.map { Set($0) }
        let bitSlots = sizes.slots.map { BitSet($0.map(Int.init)) }
        Benchmark("union of 96 slots/\(sizes.name)/UserSet") { benchmark in
            for _ in benchmark.scaledIterations {
                var day = UserSet()
                for slot in userSlots { day.formUnion(slot) }
                blackHole(day.count)
            }
        }
        Benchmark("union of 96 slots/\(sizes.name)/UserSet.union") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(UserSet.union(userSlots).count) }
        }
        Benchmark("union of 96 slots/\(sizes.name)/Set<UInt32>") { benchmark in
            for _ in benchmark.scaledIterations {
                var day = Set<UInt32>()
                for slot in plainSlots { day.formUnion(slot) }
                blackHole(day.count)
            }
        }
        Benchmark("union of 96 slots/\(sizes.name)/BitSet") { benchmark in
            for _ in benchmark.scaledIterations {
                var day = BitSet()
                for slot in bitSlots { day.formUnion(slot) }
                blackHole(day.count)
            }
        }

        let userDays = sizes.days.map { UserSet($0) }
        let plainDays = sizes.days.map { Set($0) }
        let bitDays = sizes.days.map { BitSet($0.map(Int.init)) }
        Benchmark("intersection count of 2 days/\(sizes.name)/UserSet") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(userDays[0].intersectionCount(userDays[1])) }
        }
        Benchmark("intersection count of 2 days/\(sizes.name)/Set<UInt32>") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(plainDays[0].intersection(plainDays[1]).count) }
        }
        Benchmark("intersection count of 2 days/\(sizes.name)/BitSet") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(bitDays[0].intersection(bitDays[1]).count) }
        }

        let slotBytes = userSlots.map(\.serialized)
        Benchmark("decode 96 slots/\(sizes.name)/UserSet") { benchmark in
            for _ in benchmark.scaledIterations {
                for bytes in slotBytes { blackHole(try UserSet(serialized: bytes).count) }
            }
        }
    }
}

import ComponentryList
import SeededRandom

/// Random pairs of snapshots for property tests: sections appear, vanish and reorder;
/// items are deleted, inserted, shuffled within and across sections, and edited.
struct RandomSnapshots {
    var random: SplitMix64
    let sectionIDs: [String]
    let universe: [Int]

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
        sectionIDs = (0..<6).map { "s\($0)" }.shuffled(using: &random)
        universe = Array(0..<Int.random(in: 1...120, using: &random)).shuffled(using: &random)
    }

    /// A snapshot of some of the sections and some of the items.
    mutating func next() -> Snapshot {
        let ids = sectionIDs.filter { _ in Bool.random(using: &random) }.shuffled(using: &random)
        var pool = universe.filter { _ in Int.random(in: 0..<4, using: &random) > 0 }
        if Bool.random(using: &random) { pool.shuffle(using: &random) }  // else keep long runs
        var sections = ids.map { ListSection(Group(id: $0, title: Bool.random(using: &random) ? "" : "t"), items: [Row]()) }
        for id in pool where !sections.isEmpty {
            sections[Int.random(in: 0..<sections.count, using: &random)].items.append(
                Row(id: id, version: Int.random(in: 0..<8, using: &random) == 0 ? 1 : 0))
        }
        return Snapshot(sections: sections)
    }

    /// `snapshot` with a random swap and an append in each section: small edits, where
    /// trimming and long increasing runs matter.
    mutating func edit(_ snapshot: Snapshot) -> Snapshot {
        var edited = snapshot
        for section in edited.sections.indices where edited.sections[section].items.count > 2 {
            let count = edited.sections[section].items.count
            edited.sections[section].items.swapAt(Int.random(in: 0..<count, using: &random), Int.random(in: 0..<count, using: &random))
            edited.sections[section].items.append(Row(id: 1_000 + section))
        }
        return edited
    }
}

import ComponentryList
import SeededRandom

// The data every benchmark runs on, generated from a fixed seed so that runs compare.

/// An item identified by `id`, whose content is `version`.
struct Row: Identifiable, Hashable, Sendable {
    let id: Int
    var version = 0
}

/// The one section of a flat list.
struct Flat: Identifiable, Equatable, Sendable {
    let id = 0
}

/// An old and a new list of rows, as arrays (for `CollectionDifference`) and as
/// one-section snapshots (for `ListSnapshot.changes(to:)`).
struct Workload: Sendable {
    let old: [Row]
    let new: [Row]

    var oldSnapshot: ListSnapshot<Flat, Row> { ListSnapshot(sections: [ListSection(Flat(), items: old)]) }
    var newSnapshot: ListSnapshot<Flat, Row> { ListSnapshot(sections: [ListSection(Flat(), items: new)]) }

    /// DifferenceKit's workloads: `count` rows, then `deleted` removed and `inserted`
    /// added at random places, and `shuffled` rows moved by swapping random pairs.
    static func random(count: Int, deleted: Int, inserted: Int, shuffled: Int) -> Workload {
        var random = SplitMix64(seed: UInt64(count))
        let old = (0..<count).map { Row(id: $0) }
        var new = old
        for _ in 0..<deleted { new.remove(at: Int.random(in: 0..<new.count, using: &random)) }
        for id in count..<(count + inserted) { new.insert(Row(id: id), at: Int.random(in: 0...new.count, using: &random)) }
        for _ in 0..<(shuffled / 2) {
            new.swapAt(Int.random(in: 0..<new.count, using: &random), Int.random(in: 0..<new.count, using: &random))
        }
        return Workload(old: old, new: new)
    }

    /// `count` rows, then `appended` more: the next page of a feed.
    static func appended(count: Int, appended: Int) -> Workload {
        let old = (0..<count).map { Row(id: $0) }
        return Workload(old: old, new: old + (count..<(count + appended)).map { Row(id: $0) })
    }

    /// `count` rows, unchanged.
    static func unchanged(count: Int) -> Workload {
        let rows = (0..<count).map { Row(id: $0) }
        return Workload(old: rows, new: rows)
    }

    /// `count` rows with two far apart swapped.
    static func swap(count: Int) -> Workload {
        edited(count: count) { $0.swapAt(count / 8, count - count / 8) }
    }

    /// `count` rows with the first moved to the end.
    static func firstToLast(count: Int) -> Workload {
        edited(count: count) { $0.append($0.removeFirst()) }
    }

    /// `count` rows with `reversed` adjacent ones in the middle reversed.
    static func reversed(count: Int, reversed: Int) -> Workload {
        edited(count: count) { $0[(count - reversed) / 2..<(count + reversed) / 2].reverse() }
    }

    /// `count` rows with one new row inserted in the middle.
    static func insertedOne(count: Int) -> Workload {
        edited(count: count) { $0.insert(Row(id: count), at: count / 2) }
    }

    /// `count` rows with the middle one deleted.
    static func deletedOne(count: Int) -> Workload {
        edited(count: count) { $0.remove(at: count / 2) }
    }

    /// `count` rows, and the same rows changed by `edit`.
    private static func edited(count: Int, _ edit: (inout [Row]) -> Void) -> Workload {
        let old = (0..<count).map { Row(id: $0) }
        var new = old
        edit(&new)
        return Workload(old: old, new: new)
    }
}

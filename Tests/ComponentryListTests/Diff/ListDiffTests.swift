import SeededRandom
import ComponentryList
import Testing

@Suite("Diff")
struct ListDiffTests {
    /// Applies the diff of `old` and `new` to `old` and checks the result is `new`.
    @discardableResult
    func roundTrip(_ old: Snapshot, _ new: Snapshot, sourceLocation: SourceLocation = #_sourceLocation) -> [ListChange<Group, Row>] {
        let changes = old.changes(to: new)
        var replayed = old
        replayed.apply(changes)
        #expect(replayed == new, "\(changes)", sourceLocation: sourceLocation)
        return changes
    }

    func moves(_ changes: [ListChange<Group, Row>]) -> Int {
        changes.filter { if case .moveItem = $0 { true } else { false } }.count
    }

    @Test func equalSnapshotsHaveNoChanges() {
        let list = Snapshot(["a": Array(0..<100), "b": [100, 101]])
        #expect(list.changes(to: list).isEmpty)
    }

    @Test func appendIsInsertsAtTheEnd() {
        let changes = roundTrip(Snapshot(["a": [1, 2, 3]]), Snapshot(["a": [1, 2, 3, 4, 5]]))
        #expect(changes == [
            .insertItem(Row(id: 4), at: ItemPath(section: 0, item: 3)),
            .insertItem(Row(id: 5), at: ItemPath(section: 0, item: 4)),
        ])
    }

    @Test func swapInTenThousandIsExactlyTwoMoves() {
        var items = Array(0..<10_000)
        items.swapAt(1_234, 8_765)
        let changes = roundTrip(Snapshot(["a": Array(0..<10_000)]), Snapshot(["a": items]))
        #expect(changes.count == 2)
        #expect(moves(changes) == 2)
    }

    @Test func movingOneItemIsOneMove() {
        let changes = roundTrip(Snapshot(["a": [1, 2, 3, 4, 5]]), Snapshot(["a": [2, 3, 4, 5, 1]]))
        #expect(changes == [.moveItem(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 0, item: 4))])
    }

    @Test func reversalMovesAllButOne() {
        let changes = roundTrip(Snapshot(["a": Array(0..<50)]), Snapshot(["a": Array((0..<50).reversed())]))
        #expect(moves(changes) == 49)
    }

    @Test func itemsMoveAcrossSections() {
        let changes = roundTrip(Snapshot(["todo": [1, 2, 3], "done": [4]]), Snapshot(["todo": [1, 3], "done": [2, 4]]))
        #expect(changes == [.moveItem(from: ItemPath(section: 0, item: 1), to: ItemPath(section: 1, item: 0))])
    }

    @Test func changedContentIsAReconfigureInPlace() {
        let old = Snapshot(["a": [1, 2, 3]])
        var new = old
        new.sections[0].items[1].version = 7
        new.sections[0].model.title = "renamed"
        let changes = roundTrip(old, new)
        #expect(changes == [
            .reconfigureItem(Row(id: 2, version: 7), at: ItemPath(section: 0, item: 1)),
            .reconfigureSection(Group(id: "a", title: "renamed"), at: 0),
        ])
    }

    @Test func sectionsMoveInsertAndDeleteWithTheirItems() {
        let changes = roundTrip(
            Snapshot(["a": [1], "b": [2], "c": [3], "d": [4]]),
            Snapshot(["d": [4], "b": [2], "e": [5], "a": [1]])
        )
        #expect(changes.filter { if case .moveSection = $0 { true } else { false } }.count == 2)
        #expect(changes.contains(.deleteSection(at: 2)))
        #expect(changes.contains(.insertSection(ListSection(Group(id: "e"), items: [Row(id: 5)]), at: 2)))
    }

    @Test func batchIsOrderedDeletesThenMovesThenInserts() {
        let changes = roundTrip(Snapshot(["a": [1, 2, 3, 4, 5, 6]]), Snapshot(["a": [6, 2, 7, 4, 5, 8]]))
        let kinds = changes.map { change -> Int in
            switch change {
            case .deleteItem: 0
            case .deleteSection: 1
            case .moveSection: 2
            case .insertSection: 3
            case .moveItem: 4
            case .insertItem: 5
            case .reconfigureItem: 6
            case .reconfigureSection: 7
            }
        }
        #expect(kinds == kinds.sorted())
        #expect(changes.first == .deleteItem(at: ItemPath(section: 0, item: 2)))  // last first
    }

    @Test func duplicateIdentitiesStillRoundTrip() {
        roundTrip(Snapshot(["a": [1, 1, 2, 2, 3], "b": [1]]), Snapshot(["a": [2, 1, 1, 3, 1], "b": [2, 2]]))
        roundTrip(Snapshot(["a": [1], "a": [2]]), Snapshot(["a": [2], "b": [1]]))
    }

    @Test(arguments: 0..<300 as Range<UInt64>)
    func randomSnapshotsRoundTrip(seed: UInt64) {
        var snapshots = RandomSnapshots(seed: seed)
        let old = snapshots.next()
        roundTrip(old, snapshots.next())
        roundTrip(old, snapshots.edit(old))
    }

    /// The number of moves is the fewest: items minus a longest increasing subsequence,
    /// checked against a quadratic reference on random permutations.
    @Test(arguments: 0..<50 as Range<UInt64>)
    func movesAreTheFewest(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let count = Int.random(in: 1...60, using: &random)
        let permutation = Array(0..<count).shuffled(using: &random)
        var longest = [Int](repeating: 1, count: count)
        for i in 0..<count {
            for j in 0..<i where permutation[j] < permutation[i] { longest[i] = max(longest[i], longest[j] + 1) }
        }
        let changes = roundTrip(Snapshot(["a": Array(0..<count)]), Snapshot(["a": permutation]))
        #expect(moves(changes) == count - longest.max()!)
    }
}

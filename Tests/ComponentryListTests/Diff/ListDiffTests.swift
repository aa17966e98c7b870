import ComponentryList
import SeededRandom
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
        #expect(
            changes == [
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
        #expect(
            changes == [
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

    /// The small edits of a dashboard's list of 1,000, each with the fewest steps.
    @Test func smallEditsOfAThousandAreTheFewestSteps() {
        let items = Array(0..<1_000)
        func changes(_ edit: (inout [Int]) -> Void) -> [ListChange<Group, Row>] {
            var edited = items
            edit(&edited)
            return roundTrip(Snapshot(["a": items]), Snapshot(["a": edited]))
        }
        let swap = changes { $0.swapAt(125, 875) }
        #expect(swap.count == 2 && moves(swap) == 2)
        #expect(changes { $0.append($0.removeFirst()) } == [.moveItem(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 0, item: 999))])
        #expect(
            changes { $0.insert($0.removeLast(), at: 0) } == [.moveItem(from: ItemPath(section: 0, item: 999), to: ItemPath(section: 0, item: 0))])
        let reversal = changes { $0[495..<505].reverse() }
        #expect(reversal.count == 9 && moves(reversal) == 9)
        #expect(changes { $0.insert(1_000, at: 500) } == [.insertItem(Row(id: 1_000), at: ItemPath(section: 0, item: 500))])
        #expect(changes { $0.remove(at: 500) } == [.deleteItem(at: ItemPath(section: 0, item: 500))])
    }

    /// A few random swaps, moves, reversals, inserts and deletes, in one or two sections
    /// (items may change section): the batch reproduces the target, and the moves are
    /// the fewest — every surviving item that changes section, plus, per section, those
    /// off a longest increasing run (a quadratic reference).
    @Test(arguments: 0..<200 as Range<UInt64>)
    func smallRandomEditsAreTheFewestMoves(seed: UInt64) {
        checkFewestMoves(seed: seed, count: 1...200, editsOfTheFirst: 0)
    }

    /// As above, after many more edits of the first section than can be paired in order
    /// (its items are all matched by hashing) while the second is paired in order, and
    /// items move between the two.
    @Test(arguments: 0..<100 as Range<UInt64>)
    func mixedRandomEditsAreTheFewestMoves(seed: UInt64) {
        checkFewestMoves(seed: seed, count: 100...300, editsOfTheFirst: 40)
    }

    /// Edits two sections, "a" and "b", of `count` items: `editsOfTheFirst` random edits
    /// of "a", then one to six of either; checks the round trip and the fewest moves.
    func checkFewestMoves(seed: UInt64, count: ClosedRange<Int>, editsOfTheFirst: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        var random = SplitMix64(seed: seed)
        let count = Int.random(in: count, using: &random)
        let split = Int.random(in: 0...count, using: &random)
        var sections = [Array(0..<split), Array(split..<count)]
        var next = count
        let edits =
            Array(repeating: 0, count: editsOfTheFirst)
            + (0..<Int.random(in: 1...6, using: &random)).map { _ in Int.random(in: 0..<2, using: &random) }
        for section in edits {
            let items = sections[section].count
            switch Int.random(in: 0..<5, using: &random) {
            case 0 where items > 1:
                sections[section].swapAt(Int.random(in: 0..<items, using: &random), Int.random(in: 0..<items, using: &random))
            case 1 where items > 0:
                let item = sections[section].remove(at: Int.random(in: 0..<items, using: &random))
                let target = Int.random(in: 0..<2, using: &random)
                sections[target].insert(item, at: Int.random(in: 0...sections[target].count, using: &random))
            case 2 where items > 1:
                let start = Int.random(in: 0..<items, using: &random)
                sections[section][start..<min(items, start + Int.random(in: 2...12, using: &random))].reverse()
            case 3:
                sections[section].insert(next, at: Int.random(in: 0...items, using: &random))
                next += 1
            case 4 where items > 0:
                sections[section].remove(at: Int.random(in: 0..<items, using: &random))
            default:
                break
            }
        }
        let old = Snapshot(["a": Array(0..<split), "b": Array(split..<count)])
        let changes = roundTrip(old, Snapshot(["a": sections[0], "b": sections[1]]), sourceLocation: sourceLocation)
        var fewest = 0
        for (index, items) in sections.enumerated() {
            let stayed = items.filter { $0 < count && (index == 0) == ($0 < split) }  // kept their section
            fewest += items.filter { $0 < count }.count - stayed.count
            var longest = [Int](repeating: 1, count: stayed.count)
            for i in stayed.indices {
                for j in 0..<i where stayed[j] < stayed[i] { longest[i] = max(longest[i], longest[j] + 1) }
            }
            fewest += stayed.count - (longest.max() ?? 0)
        }
        #expect(moves(changes) == fewest, "\(sections)", sourceLocation: sourceLocation)
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

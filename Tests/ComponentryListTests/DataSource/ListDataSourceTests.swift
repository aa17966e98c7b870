import ComponentryList
import Testing

@MainActor
@Suite("Data source")
struct ListDataSourceTests {
    @Test func addInsertReplaceRemoveAndMove() throws {
        let source = try ListDataSource([TestComponent("a", [1]), TestComponent("b", [2])])
        try source.add(TestComponent("d", [4]))
        try source.insert(TestComponent("c", [3]), at: 2)
        #expect(source.visibleIDs == ["a", "b", "c", "d"])
        source.move(from: 0, to: 3)
        #expect(source.visibleIDs == ["b", "c", "d", "a"])
        source.remove("c")
        let replacement = TestComponent("b", [20, 21])
        source.replace(with: replacement)
        #expect(source.visibleIDs == ["b", "d", "a"])
        #expect(source.component("b") === replacement)
        #expect(source.index(of: "a") == 2)
    }

    @Test func emptyComponentsAreHiddenUnlessTheyAskNotToBe() throws {
        let kept = TestComponent("kept")
        kept.hidesWhenEmpty = false
        let source = try ListDataSource([TestComponent("a", [1]), TestComponent("empty"), kept])
        #expect(source.visibleIDs == ["a", "kept"])
        #expect(source.components.count == 3)
        #expect(source.render().sections.map(\.id) == ["a", "kept"])
    }

    @Test func cellKindsRegisterLazilyOncePerKind() throws {
        let metrics = TestComponent("metrics", [1, 2])
        metrics.kind = "metric"
        let pages = TestComponent("pages", [3])
        pages.kind = "page"
        let source = try ListDataSource([metrics, pages, TestComponent("unread", [9])])
        var registered: [CellKind] = []
        source.onRegister = { registered.append($0) }
        #expect(source.cellKinds.isEmpty)

        #expect(source.cell(at: ItemPath(section: 1, item: 0)) == Cell("page", ["text": "3"]))
        _ = source.cell(at: ItemPath(section: 0, item: 1))
        _ = source.cell(at: ItemPath(section: 0, item: 0))
        #expect(registered == ["page", "metric"])
        _ = source.render()
        #expect(source.cellKinds == ["page", "metric", "row"])
        #expect(registered == ["page", "metric", "row"])
    }

    @Test func selectionReachesTheComponentThatOwnsTheItem() throws {
        let a = TestComponent("a", [1, 2])
        let b = TestComponent("b", [3])
        let source = try ListDataSource([a, TestComponent("hidden"), b])
        source.select(at: ItemPath(section: 1, item: 0))
        source.select(at: ItemPath(section: 0, item: 1))
        #expect(a.selected == [2])
        #expect(b.selected == [3])
    }

    /// A request that returns two components with one id is refused whole: the error
    /// names the id and the data source is as it was.
    @Test func duplicateIDsAreRefusedAndNothingChanges() throws {
        #expect(throws: ListDataSourceError.duplicateID("a")) { try ListDataSource([TestComponent("a", [1]), TestComponent("a", [2])]) }
        let a = TestComponent("a", [1])
        let source = try ListDataSource([a])
        #expect(throws: ListDataSourceError.duplicateID("a")) { try source.add(TestComponent("a", [2])) }
        #expect(throws: ListDataSourceError.duplicateID("a")) { try source.insert(TestComponent("a", [2]), at: 0) }
        #expect(throws: ListDataSourceError.duplicateID("b")) {
            try source.replaceAll(with: [TestComponent("b", [2]), TestComponent("c", [3]), TestComponent("b", [4])])
        }
        #expect(source.visibleIDs == ["a"])
        #expect(source.component("a") === a)
    }

    /// A click from a browser showing an older page names a path that is gone: nothing
    /// is selected, no cell is read.
    @Test func stalePathsAreIgnored() throws {
        let a = TestComponent("a", [1, 2])
        let source = try ListDataSource([a, TestComponent("hidden")])
        for path in [
            ItemPath(section: 0, item: 2), ItemPath(section: 1, item: 0), ItemPath(section: -1, item: 0), ItemPath(section: 0, item: -1),
            ItemPath(section: .max, item: .max),
        ] {
            #expect(source.cell(at: path) == nil)
            #expect(!source.select(at: path))
        }
        #expect(a.selected.isEmpty)
        #expect(source.cellKinds.isEmpty)
        #expect(source.select(at: ItemPath(section: 0, item: 1)))
        #expect(a.selected == [2])
    }

    /// Indices past either end are clamped; a move from a place that does not exist
    /// does nothing.
    @Test func outOfRangeIndicesAreClampedOrIgnored() throws {
        let source = try ListDataSource([TestComponent("a", [1]), TestComponent("b", [2])])
        try source.insert(TestComponent("c", [3]), at: 99)
        try source.insert(TestComponent("d", [4]), at: -5)
        #expect(source.visibleIDs == ["d", "a", "b", "c"])
        source.move(from: 7, to: 0)
        source.move(from: -1, to: 0)
        #expect(source.visibleIDs == ["d", "a", "b", "c"])
        source.move(from: 0, to: 99)
        source.move(from: 2, to: -2)
        #expect(source.visibleIDs == ["c", "a", "b", "d"])
    }

    @Test func anItemThatChangesComponentIsAMove() throws {
        let todo = TestComponent("todo", [1, 2])
        let done = TestComponent("done", [3])
        let source = try ListDataSource([todo, done])
        let before = source.render()
        todo.items.removeFirst()
        done.items.append(Row(id: 1))
        #expect(
            before.changes(to: source.render()) == [
                .moveItem(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 1, item: 1))
            ])
    }
}

import ComponentryList
import Testing

@MainActor
@Suite("Data source")
struct ListDataSourceTests {
    @Test func addInsertReplaceRemoveAndMove() {
        let source = ListDataSource([TestComponent("a", [1]), TestComponent("b", [2])])
        source.add(TestComponent("d", [4]))
        source.insert(TestComponent("c", [3]), at: 2)
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

    @Test func emptyComponentsAreHiddenUnlessTheyAskNotToBe() {
        let kept = TestComponent("kept")
        kept.hidesWhenEmpty = false
        let source = ListDataSource([TestComponent("a", [1]), TestComponent("empty"), kept])
        #expect(source.visibleIDs == ["a", "kept"])
        #expect(source.components.count == 3)
        #expect(source.render().sections.map(\.id) == ["a", "kept"])
    }

    @Test func cellKindsRegisterLazilyOncePerKind() {
        let metrics = TestComponent("metrics", [1, 2])
        metrics.kind = "metric"
        let pages = TestComponent("pages", [3])
        pages.kind = "page"
        let source = ListDataSource([metrics, pages, TestComponent("unread", [9])])
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

    @Test func selectionReachesTheComponentThatOwnsTheItem() {
        let a = TestComponent("a", [1, 2]), b = TestComponent("b", [3])
        let source = ListDataSource([a, TestComponent("hidden"), b])
        source.select(at: ItemPath(section: 1, item: 0))
        source.select(at: ItemPath(section: 0, item: 1))
        #expect(a.selected == [2])
        #expect(b.selected == [3])
    }

    @Test func anItemThatChangesComponentIsAMove() {
        let todo = TestComponent("todo", [1, 2]), done = TestComponent("done", [3])
        let source = ListDataSource([todo, done])
        let before = source.render()
        todo.items.removeFirst()
        done.items.append(Row(id: 1))
        #expect(before.changes(to: source.render()) == [
            .moveItem(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 1, item: 1)),
        ])
    }
}

import ComponentryList
import Testing

/// A server whose responses the test releases one by one.
@MainActor
final class Server {
    private(set) var requests: [ListPage] = []
    private var pending: [CheckedContinuation<[any ListComponent], any Error>] = []

    func request(_ page: ListPage) async throws -> [any ListComponent] {
        requests.append(page)
        return try await withCheckedThrowingContinuation { pending.append($0) }
    }

    /// Waits for request number `index` (from 0), then answers it.
    func respond(_ index: Int, with result: sending Result<[any ListComponent], any Error>) async {
        while pending.count <= index { await Task.yield() }
        pending[index].resume(with: result)
    }
}

struct Offline: Error {}

extension ListModuleState {
    var name: String {
        switch self {
        case .idle: "idle"
        case .loading(let page): "loading \(page.index)"
        case .loaded: "loaded"
        case .empty: "empty"
        case .failed: "failed"
        }
    }
}

@MainActor
@Suite("Module")
struct ListModuleTests {
    let server = Server()

    func module(pageSize: Int = 2) -> ListModule {
        ListModule(pageSize: pageSize, placeholders: [TestComponent("skeleton", [0])], empty: TestComponent("nothing", [-1])) { [server] page in
            try await server.request(page)
        }
    }

    /// A module that has shown its first response, `components`.
    func loaded(_ components: sending [any ListComponent]) async -> ListModule {
        let module = module()
        let refresh = Task { await module.refresh() }
        await server.respond(0, with: .success(components))
        await refresh.value
        return module
    }

    func shown(_ module: ListModule) -> [String] {
        module.rendered.sections.map(\.id)
    }

    @Test func placeholdersUntilTheFirstResponseThenTheComponents() async {
        let module = module()
        #expect(module.state.name == "idle")
        #expect(shown(module) == ["skeleton"])
        let refresh = Task { await module.refresh() }
        await server.respond(0, with: .success([TestComponent("a", [1, 2])]))
        await refresh.value
        #expect(module.state.name == "loaded")
        #expect(shown(module) == ["a"])
        #expect(module.shouldLoadMore)
    }

    @Test func loadMoreRequestsTheNextPageAndAddsItsComponents() async {
        let module = module()
        let refresh = Task { await module.refresh() }
        await server.respond(0, with: .success([TestComponent("a", [1, 2])]))
        await refresh.value
        let more = Task { await module.loadMore() }
        while !module.state.isLoading { await Task.yield() }
        #expect(module.state.name == "loading 1")
        await module.loadMore()  // ignored while loading
        await server.respond(1, with: .success([TestComponent("b", [3])]))
        await more.value
        #expect(server.requests == [ListPage(index: 0, size: 2), ListPage(index: 1, size: 2)])
        #expect(shown(module) == ["a", "b"])
        #expect(!module.shouldLoadMore)  // one item of two: the last page
        await module.loadMore()
        #expect(server.requests.count == 2)
    }

    @Test func emptyResponseShowsTheEmptyState() async {
        let module = module()
        let refresh = Task { await module.refresh() }
        await server.respond(0, with: .success([TestComponent("a")]))
        await refresh.value
        #expect(module.state.name == "empty")
        #expect(shown(module) == ["nothing"])
    }

    @Test func failureKeepsWhatWasShown() async {
        let module = module()
        let first = Task { await module.refresh() }
        await server.respond(0, with: .success([TestComponent("a", [1])]))
        await first.value
        let second = Task { await module.refresh() }
        await server.respond(1, with: .failure(Offline()))
        await second.value
        #expect(module.state.name == "failed")
        #expect(shown(module) == ["a"])
    }

    @Test func aResponseOvertakenByANewerRefreshIsDropped() async {
        let module = module()
        let older = Task { await module.refresh() }
        while server.requests.count < 1 { await Task.yield() }
        let newer = Task { await module.refresh() }
        await server.respond(1, with: .success([TestComponent("new", [1])]))
        await newer.value
        await server.respond(0, with: .success([TestComponent("old", [1])]))
        await older.value
        #expect(shown(module) == ["new"])
        #expect(module.state.name == "loaded")
    }

    @Test func reloadReportsTheChangesAndLaysOutFromTheFirst() async {
        let module = module(pageSize: 10)
        let list = TestComponent("a", Array(0..<8))
        let refresh = Task { await module.refresh() }
        await server.respond(0, with: .success([list, TestComponent("b", [100])]))
        await refresh.value
        var updates: [ListUpdate] = []
        module.onUpdate = { updates.append($0) }

        list.items.append(Row(id: 8))
        module.reload()
        #expect(
            updates.map(\.changes) == [
                [.insertItem(RenderedItem(id: ItemIdentity(of: Row(id: 8)), cell: Cell("row", ["text": "8"])), at: ItemPath(section: 0, item: 8))]
            ])
        #expect(module.layout.frame(at: ItemPath(section: 1, item: 0))?.y == 9 * 44.0)
        module.reload()  // nothing changed: no update
        #expect(updates.count == 1)
        module.environment = ListEnvironment(containerWidth: 1_000)
        #expect(module.layout.frame(at: ItemPath(section: 0, item: 0))?.width == 1_000)
    }

    /// A page whose components share an id fails like any failed request: the error
    /// says why and what was shown stays, for a refresh and for a load more.
    @Test func aResponseWithDuplicateIDsFailsAndKeepsWhatWasShown() async {
        let module = await loaded([TestComponent("a", [1, 2])])
        let more = Task { await module.loadMore() }
        await server.respond(1, with: .success([TestComponent("b", [3]), TestComponent("b", [4])]))
        await more.value
        guard case .failed(let error) = module.state else {
            Issue.record("\(module.state.name)")
            return
        }
        #expect(error as? ListDataSourceError == .duplicateID("b"))
        #expect(shown(module) == ["a"])
        let second = Task { await module.refresh() }
        await server.respond(2, with: .success([TestComponent("c", [5]), TestComponent("c", [6])]))
        await second.value
        #expect(module.state.name == "failed")
        #expect(shown(module) == ["a"])
        #expect(module.dataSource.components.map(\.id) == ["a"])
    }

    /// A click on an item the page no longer shows (the browser was behind) is ignored.
    @Test func aStaleSelectionIsIgnored() async {
        let list = TestComponent("a", [1, 2])
        let module = await loaded([list])
        #expect(!module.select(at: ItemPath(section: 0, item: 2)))
        #expect(!module.select(at: ItemPath(section: 1, item: 0)))
        #expect(!module.select(at: ItemPath(section: -1, item: -1)))
        #expect(list.selected.isEmpty)
    }

    @Test func selectionReachesTheShownComponent() async {
        let list = TestComponent("a", [1, 2])
        let module = await loaded([list])
        module.select(at: ItemPath(section: 0, item: 1))
        #expect(list.selected == [2])
    }
}

import Componentry
import Foundation
import Testing

@MainActor
@Suite("Component manager")
struct ComponentManagerTests {
    @Test func buildsTheLayoutInOrderAndSkipsAndReportsUnknownIdentifiers() throws {
        let page = DashboardPage(factory: try makeFactory(), order: ["users", "ads", "revenue"])
        #expect(page.manager.identifiers == ["users", "revenue"])
        // By type, subclasses included, in layout order.
        #expect(page.manager.components(JournalingCard.self).map { type(of: $0).identifier } == ["users", "revenue"])
        #expect(page.manager.components(RevenueCard.self).count == 1)
        #expect(page.manager.components(VersionsCard.self).isEmpty)
        #expect(page.manager.unknownIdentifiers == ["ads"])
        #expect(page.manager.order.identifiers == ["users", "ads", "revenue"])  // kept, for a later build
    }

    @Test func aLayoutDecodesFromAPlainListOrAnObjectWithHiddenComponents() throws {
        let plain = try JSONDecoder().decode(ComponentOrder.self, from: Data(#"["revenue", "users"]"#.utf8))
        #expect(plain == ["revenue", "users"])
        let object = try JSONDecoder().decode(
            ComponentOrder.self, from: Data(#"{"identifiers": ["revenue", "users", "versions"], "hidden": ["users"]}"#.utf8)
        )
        #expect(object.visible == ["revenue", "versions"])
        #expect(try JSONDecoder().decode(ComponentOrder.self, from: JSONEncoder().encode(object)) == object)

        let page = DashboardPage(factory: try makeFactory(), order: object)
        #expect(page.manager.identifiers == ["revenue", "versions"])
    }

    @Test func pageEventsReachEveryComponentInLayoutOrder() throws {
        let page = DashboardPage(factory: try makeFactory(), order: ["versions", "revenue"])
        page.manager.pageDidLoad()
        page.manager.pageWillAppear()
        page.manager.pageDidAppear()
        page.manager.pageWillLayout()
        page.manager.pageDidLayout()
        page.manager.pageWillDisappear()
        page.manager.pageDidDisappear()
        page.reload()
        let hooks = ["didLoad", "willAppear", "didAppear", "willLayout", "didLayout", "willDisappear", "didDisappear", "reload"]
        #expect(page.viewModel.journal == hooks.flatMap { ["versions.\($0)", "revenue.\($0)"] })
    }

    @Test func componentsAddedAtRunTimeCatchUpWithThePage() throws {
        let page = DashboardPage(factory: try makeFactory(), order: ["revenue"])
        #expect(page.manager.add("users") is UsersCard)
        #expect(page.viewModel.journal.isEmpty)  // the page has not loaded: nothing yet
        page.manager.pageDidLoad()
        page.manager.pageWillAppear()
        page.manager.pageDidAppear()
        page.viewModel.journal = []

        page.manager.add("versions", at: 0)
        #expect(page.viewModel.journal == ["versions.didLoad", "versions.willAppear", "versions.didAppear"])
        #expect(page.manager.order.identifiers == ["versions", "revenue", "users"])
        #expect(page.manager.add("ads") == nil)
        #expect(page.manager.order.identifiers == ["versions", "revenue", "users"])
    }

    @Test func removingAndHidingTakeAVisibleComponentOffThePage() throws {
        let page = DashboardPage(factory: try makeFactory(), order: ["revenue", "users", "versions"])
        page.manager.pageDidLoad()
        page.manager.pageWillAppear()
        page.manager.pageDidAppear()
        page.viewModel.journal = []

        page.manager.remove("users")
        page.manager.setHidden(true, for: "revenue")
        #expect(page.viewModel.journal == ["users.willDisappear", "users.didDisappear", "revenue.willDisappear", "revenue.didDisappear"])
        #expect(page.manager.identifiers == ["versions"])
        #expect(page.manager.order == ComponentOrder(["revenue", "versions"], hidden: ["revenue"]))

        page.viewModel.journal = []
        page.manager.setHidden(false, for: "revenue")
        #expect(page.viewModel.journal == ["revenue.didLoad", "revenue.willAppear", "revenue.didAppear"])
        #expect(page.manager.identifiers == ["revenue", "versions"])
    }

    @Test func movingReordersWithoutLifecycleCalls() throws {
        let page = DashboardPage(factory: try makeFactory(), order: ["revenue", "users", "versions"])
        page.manager.pageDidLoad()
        page.viewModel.journal = []
        page.manager.move("versions", to: 0)
        page.manager.move("revenue", to: 99)
        #expect(page.viewModel.journal.isEmpty)
        #expect(page.manager.order.identifiers == ["versions", "users", "revenue"])
        page.manager.pageWillLayout()
        #expect(page.viewModel.journal == ["versions.willLayout", "users.willLayout", "revenue.willLayout"])
    }

    @Test func aComponentRemovedByAHookDoesNotGetTheEventAfterwards() throws {
        let page = DashboardPage(factory: try makeFactory(), order: ["revenue", "users", "versions"])
        page.manager.pageDidLoad()
        let revenue = try #require(page.manager.component(RevenueCard.self))
        revenue.after["willLayout"] = { page.manager.remove("users") }
        page.viewModel.journal = []
        page.manager.pageWillLayout()
        #expect(page.viewModel.journal == ["revenue.willLayout", "versions.willLayout"])
    }

    @Test func aComponentFindsAnotherByTypeThroughItsContext() throws {
        let page = DashboardPage(factory: try makeFactory(), order: ["revenue", "versions"])
        let versions = try #require(page.manager.component(VersionsCard.self))
        #expect(versions.revenue === page.manager.component(for: "revenue"))
        #expect(page.manager.component(UsersCard.self) == nil)
        #expect(page.manager.component(JournalingCard.self) is RevenueCard)  // the first, by subclass
    }

    @Test func thePageAndAllItsComponentsAreFreedTogether() throws {
        let factory = try makeFactory()
        weak var weakPage: DashboardPage?
        var weakComponents: [() -> AnyObject?] = []
        do {
            let page = DashboardPage(factory: factory, order: ["revenue", "users", "versions"])
            page.manager.pageDidLoad()
            page.manager.pageDidAppear()
            weakPage = page
            for component in page.manager.components(JournalingCard.self) {
                weak let weakComponent = component
                weakComponents.append { weakComponent }
            }
            #expect(weakComponents.allSatisfy { $0() != nil })
        }
        #expect(weakPage == nil)
        #expect(weakComponents.count == 3)
        #expect(weakComponents.allSatisfy { $0() == nil })
    }
}

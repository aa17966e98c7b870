import Componentry
import Dispatch
import Foundation
import Testing

@MainActor
@Suite("Component factory")
struct ComponentFactoryTests {
    /// A context for the components made (a new page each time; they hold it weakly).
    var page: DashboardPage { DashboardPage(factory: ComponentFactory(), order: []) }

    @Test func makesTheComponentRegisteredUnderAnIdentifier() throws {
        let factory = try makeFactory()
        #expect(factory.identifiers == ["revenue", "users", "versions"])
        #expect(factory.make("users", context: page) is UsersCard)
        #expect(factory.make("unknown", context: page) == nil)
    }

    @Test func aClosureRegistersOneTypeUnderSeveralIdentifiers() throws {
        let factory = ComponentFactory<Dashboard>()
        try factory.register("dau") { _ in MetricCard(metric: "daily users") }
        try factory.register("mau") { _ in MetricCard(metric: "monthly users") }
        #expect((factory.make("dau", context: page) as? MetricCard)?.metric == "daily users")
        #expect((factory.make("mau", context: page) as? MetricCard)?.metric == "monthly users")
    }

    @Test func aBlankIdentifierIsRefusedAndNothingInTheListIsRegistered() {
        let factory = ComponentFactory<Dashboard>()
        #expect(throws: ComponentFactoryError.blankIdentifier(type: String(reflecting: BlankCard.self))) {
            try factory.register {
                RevenueCard.self
                BlankCard.self
            }
        }
        #expect(factory.identifiers.isEmpty)
        #expect(throws: ComponentFactoryError.self) { try factory.register("") { _ in MetricCard(metric: "x") } }
    }

    @Test func aDuplicateIdentifierIsRefusedWithBothTypes() throws {
        let factory = try makeFactory()
        let error = #expect(throws: ComponentFactoryError.self) {
            try factory.register("users") { _ in MetricCard(metric: "users") }
        }
        #expect(
            error
                == .duplicateIdentifier(
                    "users", registered: String(reflecting: UsersCard.self), refused: String(reflecting: MetricCard.self)
                ))
        #expect(factory.make("users", context: page) is UsersCard)
        // A duplicate inside one list is refused too, and the list registers nothing.
        let fresh = ComponentFactory<Dashboard>()
        #expect(throws: ComponentFactoryError.self) {
            try fresh.register {
                RevenueCard.self
                UsersCard.self
                RevenueCard.self
            }
        }
        #expect(fresh.identifiers.isEmpty)
    }

    @Test func registrationDoesNotDependOnOrder() throws {
        let forward = ComponentFactory<Dashboard>()
        try forward.register(DashboardComponents.all)
        let backward = ComponentFactory<Dashboard>()
        try backward.register { VersionsCard.self }
        try backward.register { UsersCard.self }
        try backward.register { RevenueCard.self }
        #expect(forward.identifiers == backward.identifiers)
    }

    @Test func theAuditReportsRefusalsAndIdentifiersNobodyRegistered() throws {
        let factory = try makeFactory()
        #expect(factory.audit([["revenue", "users"]]).isClean)
        try? factory.register { UsersCard.self }
        let audit = factory.audit([["revenue", "ads", "users"], ComponentOrder(["ads", "ratings"], hidden: ["ratings"])])
        #expect(
            audit.refused.map(\.description) == [
                "identifier \"users\" of \(String(reflecting: UsersCard.self)) is already registered by \(String(reflecting: UsersCard.self))"
            ])
        #expect(audit.unregistered == ["ads", "ratings"])
        #expect(!audit.isClean)
    }

    /// Eight threads register identifiers of their own and query the factory; every
    /// registration must land exactly once, and duplicates must all be refused.
    @Test func stressEightThreadsRegisterAndResolve() async throws {
        let factory = ComponentFactory<Dashboard>()
        let threads = 8
        let perThread = 200
        let refused = Counter()
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<threads {
                group.addTask {
                    await runOnThread {
                        for index in 0..<perThread {
                            let identifier = "card \(index % 100) of \(thread % 4)"  // threads in pairs collide
                            do {
                                try factory.register(identifier) { _ in MetricCard(metric: identifier) }
                            } catch {
                                refused.increment()
                            }
                            _ = factory.contains(identifier)
                            _ = factory.audit([[identifier]])
                        }
                    }
                }
            }
        }
        #expect(factory.identifiers.count == 400)
        #expect(refused.count == threads * perThread - 400)
        #expect(factory.audit().refused.count == refused.count)
        for identifier in factory.identifiers {
            #expect((factory.make(identifier, context: page) as? MetricCard)?.metric == identifier)
        }
    }
}

import Componentry

/// The view model of the test page: a day, and the journal every component writes its
/// hooks to, so tests can check their order across components.
@MainActor
final class Dashboard {
    var day = "2024-05-01"
    var journal: [String] = []
}

/// A page that hosts components, as a dashboard controller would.
@MainActor
final class DashboardPage: ComponentContext {
    let viewModel = Dashboard()
    let eventBus = EventBus()
    let manager: ComponentManager<Dashboard>
    private(set) var reloads = 0

    init(factory: ComponentFactory<Dashboard>, order: ComponentOrder) {
        manager = ComponentManager(factory: factory)
        manager.load(order, context: self)
    }

    func component<C: Component>(_ type: C.Type) -> C? { manager.component(type) }

    func reload() {
        reloads += 1
        manager.reload()
    }
}

/// A component that writes each hook to the journal as "identifier.hook".
class JournalingCard: Component {
    class var identifier: String { "journaling" }
    weak var context: (any ComponentContext<Dashboard>)?
    /// Runs after the hook named by the key is written, for tests that act from a hook.
    var after: [String: () -> Void] = [:]

    required init(context: any ComponentContext<Dashboard>) {
        self.context = context
    }

    private func write(_ hook: String) {
        context?.viewModel.journal.append("\(Self.identifier).\(hook)")
        after[hook]?()
    }

    func didLoad() { write("didLoad") }
    func willAppear() { write("willAppear") }
    func didAppear() { write("didAppear") }
    func willDisappear() { write("willDisappear") }
    func didDisappear() { write("didDisappear") }
    func willLayout() { write("willLayout") }
    func didLayout() { write("didLayout") }
    func reload() { write("reload") }
}

final class RevenueCard: JournalingCard {
    override class var identifier: String { "revenue" }
}

final class UsersCard: JournalingCard {
    override class var identifier: String { "users" }
}

final class VersionsCard: JournalingCard {
    override class var identifier: String { "versions" }

    /// The revenue card, found through the context.
    var revenue: RevenueCard? { context?.component(RevenueCard.self) }
}

/// A card configured at creation: registered by closure, under several identifiers.
final class MetricCard: Component {
    static let identifier = "metric"
    let metric: String

    init(context: any ComponentContext<Dashboard>) {
        metric = "none"
    }

    init(metric: String) {
        self.metric = metric
    }
}

/// A component whose identifier is blank, which factories refuse.
final class BlankCard: Component {
    static let identifier = "  "
    init(context: any ComponentContext<Dashboard>) {}
}

/// The test app's components, listed in one place.
enum DashboardComponents {
    static let all = ComponentList<Dashboard> {
        RevenueCard.self
        UsersCard.self
        VersionsCard.self
    }
}

@MainActor
func makeFactory() throws -> ComponentFactory<Dashboard> {
    let factory = ComponentFactory<Dashboard>()
    try factory.register(DashboardComponents.all)
    return factory
}

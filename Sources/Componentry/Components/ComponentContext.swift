/// What a component sees of the page that hosts it: the view model, the event bus, the
/// other components and reload — and nothing else of the page's interface.
///
/// The page (typically its controller) implements it, forwarding to its
/// ``ComponentManager``:
///
/// ```swift
/// extension DashboardPage: ComponentContext {
///     func component<C: Component>(_ type: C.Type) -> C? { manager.component(type) }
///     func reload() { manager.reload() }
/// }
/// ```
///
/// Components hold the context weakly and the manager holds it weakly too, so the page
/// owns everything and nothing owns the page: when the page goes, its manager and all its
/// components go with it.
@MainActor
public protocol ComponentContext<ViewModel>: AnyObject {
    /// The type of the page's view model.
    associatedtype ViewModel

    /// The page's view model.
    var viewModel: ViewModel { get }

    /// The bus the page's components talk over.
    var eventBus: EventBus { get }

    /// The page's visible component of type `type` (or a subclass), or `nil` when it has
    /// none; for a component that builds on another one's views.
    func component<C: Component>(_ type: C.Type) -> C?

    /// Reloads the page: typically ``ComponentManager/reload()``.
    func reload()
}

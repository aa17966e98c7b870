/// One self-contained part of a page — a card, a chart, a header — with its own business,
/// decoupled from the other components and from the page that hosts it.
///
/// A component names itself with a stable ``identifier``, is created by a
/// ``ComponentFactory`` from that identifier, and is driven by a ``ComponentManager``,
/// which passes the page's lifecycle on to it. All it knows of the page is its
/// ``ComponentContext``: the view model, the event bus, the other components (by type) and
/// reload. Keep the context `weak`, as a delegate: the page owns its components, so a
/// strong reference would keep the page alive.
///
/// ```swift
/// final class RevenueCard: Component {
///     static let identifier = "revenue"
///     weak var context: (any ComponentContext<Dashboard>)?
///
///     init(context: any ComponentContext<Dashboard>) { self.context = context }
///
///     func reload() { print("revenue for", context?.viewModel.day ?? "?") }
/// }
/// ```
///
/// Every hook has a default that does nothing, so a component implements only the ones it
/// needs. Components live on the main actor, as the views they manage do; their types
/// (`SendableMetatype`) can be listed in a `static let` and registered from any thread.
@MainActor
public protocol Component<ViewModel>: AnyObject, SendableMetatype {
    /// The type of the host's view model, which the component reads through its context.
    associatedtype ViewModel

    /// The component's name in layouts and in the factory: unique per factory, not blank,
    /// and stable across releases, since saved layouts name it.
    nonisolated static var identifier: String { get }

    /// Creates the component for the page `context` stands for. Keep `context` weakly.
    init(context: any ComponentContext<ViewModel>)

    /// The page has loaded (or the component was added to a page that had): create views
    /// and subscriptions here. Called once, before any other hook.
    func didLoad()

    /// The page is about to appear.
    func willAppear()

    /// The page has appeared.
    func didAppear()

    /// The page is about to disappear, or the component is about to be removed or hidden
    /// while the page is visible.
    func willDisappear()

    /// The page has disappeared, or the component was removed or hidden while the page was
    /// visible.
    func didDisappear()

    /// The page is about to lay out its views.
    func willLayout()

    /// The page has laid out its views.
    func didLayout()

    /// Reloads the component's content, from its view model or its source.
    func reload()
}

extension Component {
    public func didLoad() {}
    public func willAppear() {}
    public func didAppear() {}
    public func willDisappear() {}
    public func didDisappear() {}
    public func willLayout() {}
    public func didLayout() {}
    public func reload() {}
}

/// Holds a page's components in the order of its layout and passes the page's lifecycle
/// on to them.
///
/// The page owns a manager, loads a layout into it, and forwards its own lifecycle:
///
/// ```swift
/// let manager = ComponentManager(factory: factory)
/// manager.load(["revenue", "users"], context: page)
/// manager.pageDidLoad()
/// manager.pageWillAppear()     // each component's willAppear(), in layout order
/// ```
///
/// ## Layout
/// ``order`` is the layout: identifiers in order, hidden ones included. The manager
/// creates a component for each visible identifier the factory knows; an identifier it
/// does not know is skipped, kept in the layout (a later build may know it) and reported
/// in ``unknownIdentifiers``. Hidden components are not created. ``add(_:at:)``,
/// ``remove(_:)``, ``move(_:to:)`` and ``setHidden(_:for:)`` change the layout at run
/// time; persist ``order`` to keep the user's choice.
///
/// ## Lifecycle
/// Each page event reaches the visible components in layout order. A component that joins
/// later is brought up to where the page is (did load, then will/did appear if the page
/// is on screen); one that leaves while the page is on screen gets will/did disappear. A
/// component added, removed or hidden by a hook during an event: one removed does not get
/// the event afterwards, one added gets only what its entry gave it.
///
/// The manager holds its context weakly and its components strongly: the page owns the
/// manager, so page, manager and components are freed together.
///
/// ## Availability
/// Runs on the package's floors (iOS 15, macOS 12), as ``ComponentFactory`` does.
@MainActor
public final class ComponentManager<ViewModel> {
    /// The layout: every identifier in order, with the hidden ones.
    public private(set) var order: ComponentOrder = []

    private let factory: ComponentFactory<ViewModel>
    private weak var context: (any ComponentContext<ViewModel>)?
    private var phase = PagePhase.initial
    /// The created components by identifier.
    private var instances: [String: CreatedComponent<ViewModel>] = [:]
    /// The created components, in layout order: what events iterate.
    private var visible: ContiguousArray<CreatedComponent<ViewModel>> = []
    /// Counts changes to `visible`, so an event can tell when a hook changed it.
    private var changes = 0

    /// Creates a manager that creates its components with `factory`.
    public init(factory: ComponentFactory<ViewModel>) {
        self.factory = factory
    }

    /// The identifiers of the visible components, in layout order: ``order``'s visible
    /// identifiers that a component was created for.
    public var identifiers: [String] {
        order.visible.filter { instances[$0] != nil }
    }

    /// The visible identifiers that no component is registered under, in layout order.
    public var unknownIdentifiers: [String] {
        order.visible.filter { instances[$0] == nil }
    }

    // MARK: Layout

    /// Replaces the layout with `order`, creating its visible components for `context`,
    /// which the manager keeps weakly for components added later. Components already there
    /// leave first.
    public func load(_ order: ComponentOrder, context: any ComponentContext<ViewModel>) {
        for created in visible { phase.leave(created.component) }
        instances = [:]
        self.context = context
        self.order = order
        for identifier in order.visible {
            instances[identifier] = factory.create(identifier, context: context)
        }
        arrange()
        for created in visible { phase.enter(created.component) }
    }

    /// Adds the component registered under `identifier` at `index` in ``order`` (at the
    /// end by default) and returns it; returns `nil`, changing nothing, when no component
    /// is registered under `identifier` or there is no context (before
    /// ``load(_:context:)``, or once the page is gone). An identifier already in the layout
    /// stays where it is.
    @discardableResult
    public func add(_ identifier: String, at index: Int? = nil) -> (any Component<ViewModel>)? {
        guard !order.contains(identifier) else { return instances[identifier]?.component }
        guard let context, let created = factory.create(identifier, context: context) else { return nil }
        order.insert(identifier, at: clamped(index ?? order.identifiers.count, upTo: order.identifiers.count))
        instances[identifier] = created
        arrange()
        phase.enter(created.component)
        return created.component
    }

    /// Removes `identifier` from the layout; its component, if any, leaves the page.
    public func remove(_ identifier: String) {
        order.remove(identifier)
        release(identifier)
    }

    /// Moves `identifier` to `index` in ``order``; a move is no lifecycle event.
    public func move(_ identifier: String, to index: Int) {
        guard order.contains(identifier) else { return }
        order.move(identifier, to: clamped(index, upTo: order.identifiers.count - 1))
        arrange()
    }

    /// Hides or shows `identifier`. A hidden component leaves the page and is released;
    /// shown again, it is created anew and joins the page.
    public func setHidden(_ isHidden: Bool, for identifier: String) {
        guard order.contains(identifier), order.hidden.contains(identifier) != isHidden else { return }
        order.setHidden(isHidden, identifier)
        if isHidden {
            release(identifier)
        } else if let context, let created = factory.create(identifier, context: context) {
            instances[identifier] = created
            arrange()
            phase.enter(created.component)
        }
    }

    private func release(_ identifier: String) {
        guard let created = instances.removeValue(forKey: identifier) else { return }
        arrange()
        phase.leave(created.component)
    }

    /// Rebuilds `visible` from the layout.
    private func arrange() {
        visible = ContiguousArray(order.visible.compactMap { instances[$0] })
        changes &+= 1
    }

    private func clamped(_ index: Int, upTo limit: Int) -> Int {
        min(max(index, 0), limit)
    }

    // MARK: Finding

    /// The first visible component of type `type` (or a subclass), in layout order.
    public func component<C: Component>(_ type: C.Type) -> C? {
        for created in visible {
            if let match = created.object as? C { return match }
        }
        return nil
    }

    /// The visible components of type `type` (or a subclass), in layout order.
    public func components<C: Component>(_ type: C.Type) -> [C] {
        visible.compactMap { $0.object as? C }
    }

    /// The visible component created for `identifier`.
    public func component(for identifier: String) -> (any Component<ViewModel>)? {
        instances[identifier]?.component
    }

    // MARK: Lifecycle

    /// The page has loaded: every component's ``Component/didLoad()``. Call it once.
    public func pageDidLoad() {
        phase = .loaded
        send { $0.didLoad() }
    }

    /// The page is about to appear: every component's ``Component/willAppear()``.
    public func pageWillAppear() {
        phase = .appearing
        send { $0.willAppear() }
    }

    /// The page has appeared: every component's ``Component/didAppear()``.
    public func pageDidAppear() {
        phase = .visible
        send { $0.didAppear() }
    }

    /// The page is about to disappear: every component's ``Component/willDisappear()``.
    public func pageWillDisappear() {
        phase = .disappearing
        send { $0.willDisappear() }
    }

    /// The page has disappeared: every component's ``Component/didDisappear()``.
    public func pageDidDisappear() {
        phase = .loaded
        send { $0.didDisappear() }
    }

    /// The page is about to lay out: every component's ``Component/willLayout()``.
    public func pageWillLayout() {
        send { $0.willLayout() }
    }

    /// The page has laid out: every component's ``Component/didLayout()``.
    public func pageDidLayout() {
        send { $0.didLayout() }
    }

    /// Reloads every component, in layout order.
    public func reload() {
        send { $0.reload() }
    }

    /// Calls `hook` on the visible components in order; one that a hook removed meanwhile
    /// is skipped.
    private func send(_ hook: (any Component<ViewModel>) -> Void) {
        let components = visible
        let start = changes
        for created in components {
            if changes != start, !visible.contains(where: { $0.object === created.object }) { continue }
            hook(created.component)
        }
    }
}

import Locking

/// Creates components from their identifiers: the registry that splits creation from
/// management.
///
/// Each module lists its components in one place and registers them in one call, at a
/// moment the app chooses — nothing registers itself as a side effect of loading, so the
/// result never depends on load order:
///
/// ```swift
/// enum DashboardComponents {
///     static let all = ComponentList<Dashboard> {
///         RevenueCard.self
///         UsersCard.self
///     }
/// }
///
/// let factory = ComponentFactory<Dashboard>()
/// try factory.register(DashboardComponents.all)
/// ```
///
/// A component that needs more than its context to be created registers a closure under
/// an identifier of its own (``register(_:make:)``). A blank or already registered
/// identifier is refused with a ``ComponentFactoryError`` and remembered for ``audit(_:)``,
/// which a test can run against the app's layouts.
///
/// ## Threads
/// Registering and querying work from any thread; ``make(_:context:)`` runs on the main
/// actor, as components do.
///
/// ## Availability
/// Runs on the package's floors (iOS 15, macOS 12). A collection, tuple, metatype or
/// dynamic cast of a constrained existential such as `any Component<ViewModel>` needs the
/// runtime support for parameterized protocol types of iOS 16 and macOS 13, so neither the
/// factory nor ``ComponentManager`` keeps one: components and their makers live in structs
/// (a registration, a created component), whose fields may be such existentials on every
/// release, and component types arrive through ``ComponentListBuilder``.
public final class ComponentFactory<ViewModel>: Sendable {
    private struct State {
        var registrations: [String: ComponentRegistration<ViewModel>] = [:]
        var refused: [ComponentFactoryError] = []
    }

    private let state = Locked(State())

    /// Creates an empty factory.
    public init() {}

    /// Registers the types of `list`, each under its ``Component/identifier``, all or none:
    /// when one identifier is blank or taken (by an earlier registration or another type in
    /// the list), nothing is registered and the first problem is thrown.
    public func register(_ list: ComponentList<ViewModel>) throws(ComponentFactoryError) {
        try register(list.registrations)
    }

    /// Registers the types `content` lists, each under its ``Component/identifier``, all or
    /// none, as the list form does:
    ///
    /// ```swift
    /// try factory.register {
    ///     RevenueCard.self
    ///     UsersCard.self
    /// }
    /// ```
    public func register(@ComponentListBuilder<ViewModel> _ content: () -> ComponentList<ViewModel>) throws(ComponentFactoryError) {
        try register(content())
    }

    /// Registers `make` under `identifier`, for components created with more than a
    /// context — one type under several identifiers, each configured differently.
    public func register<C: Component<ViewModel>>(
        _ identifier: String, make: @escaping @MainActor @Sendable (any ComponentContext<ViewModel>) -> C
    ) throws(ComponentFactoryError) {
        try register([ComponentRegistration(identifier: identifier, make: make)])
    }

    private func register(_ registrations: [ComponentRegistration<ViewModel>]) throws(ComponentFactoryError) {
        try state.withLock { state throws(ComponentFactoryError) in
            var added: [String: String] = [:]
            for registration in registrations {
                let problem: ComponentFactoryError? =
                    if registration.identifier.allSatisfy(\.isWhitespace) {
                        .blankIdentifier(type: registration.typeName)
                    } else if let existing = state.registrations[registration.identifier]?.typeName ?? added[registration.identifier] {
                        .duplicateIdentifier(registration.identifier, registered: existing, refused: registration.typeName)
                    } else {
                        nil
                    }
                if let problem {
                    state.refused.append(problem)
                    throw problem
                }
                added[registration.identifier] = registration.typeName
            }
            for registration in registrations { state.registrations[registration.identifier] = registration }
        }
    }

    /// The registered identifiers, sorted.
    public var identifiers: [String] {
        state.withLock { $0.registrations.keys.sorted() }
    }

    /// Whether a component is registered under `identifier`.
    public func contains(_ identifier: String) -> Bool {
        state.withLock { $0.registrations[identifier] != nil }
    }

    /// Creates the component registered under `identifier` for `context`, or returns `nil`
    /// when none is.
    @MainActor
    public func make(_ identifier: String, context: any ComponentContext<ViewModel>) -> (any Component<ViewModel>)? {
        create(identifier, context: context)?.component
    }

    /// ``make(_:context:)``'s component, with its identity, for ``ComponentManager``.
    @MainActor
    func create(_ identifier: String, context: any ComponentContext<ViewModel>) -> CreatedComponent<ViewModel>? {
        state.withLock { $0.registrations[identifier] }?.make(context)
    }

    /// What is wrong with the registrations and with `layouts`: every registration refused
    /// so far, and every identifier a layout names that nobody registered.
    ///
    /// ```swift
    /// #expect(factory.audit([.default, savedLayout]).isClean)
    /// ```
    public func audit(_ layouts: [ComponentOrder] = []) -> ComponentAudit {
        state.withLock { state in
            var unregistered: [String] = []
            for identifier in layouts.flatMap(\.identifiers)
            where state.registrations[identifier] == nil && !unregistered.contains(identifier) {
                unregistered.append(identifier)
            }
            return ComponentAudit(refused: state.refused, unregistered: unregistered)
        }
    }
}

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
///     static let all: [any Component<Dashboard>.Type] = [RevenueCard.self, UsersCard.self]
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
/// Needs iOS 16, macOS 13, tvOS 16 or watchOS 9: it keeps components and component types
/// as `any Component<ViewModel>` in collections and closures, and such a constrained
/// existential needs the runtime support for parameterized protocol types that those
/// releases added (the compiler refuses it below them).
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public final class ComponentFactory<ViewModel>: Sendable {
    /// Creates a component for a context.
    typealias Maker = @MainActor @Sendable (any ComponentContext<ViewModel>) -> any Component<ViewModel>

    private struct State {
        var makers: [String: (maker: Maker, typeName: String)] = [:]
        var refused: [ComponentFactoryError] = []
    }

    private let state = Locked(State())

    /// Creates an empty factory.
    public init() {}

    /// Registers `types`, each under its ``Component/identifier``, all or none: when one
    /// identifier is blank or taken (by an earlier registration or another type in the
    /// list), nothing is registered and the first problem is thrown.
    public func register(_ types: [any Component<ViewModel>.Type]) throws(ComponentFactoryError) {
        try register(types.map { type in (type.identifier, Self.maker(for: type), String(reflecting: type)) })
    }

    /// Registers `types`, each under its ``Component/identifier``, all or none, as the
    /// list form does.
    public func register(_ types: any Component<ViewModel>.Type...) throws(ComponentFactoryError) {
        try register(types)
    }

    /// Registers `make` under `identifier`, for components created with more than a
    /// context — one type under several identifiers, each configured differently.
    public func register<C: Component<ViewModel>>(
        _ identifier: String, make: @escaping @MainActor @Sendable (any ComponentContext<ViewModel>) -> C
    ) throws(ComponentFactoryError) {
        let maker: Maker = { make($0) }
        try register([(identifier, maker, String(reflecting: C.self))])
    }

    private func register(_ entries: [(identifier: String, maker: Maker, typeName: String)]) throws(ComponentFactoryError) {
        try state.withLock { state throws(ComponentFactoryError) in
            var added: [String: String] = [:]
            for entry in entries {
                let problem: ComponentFactoryError? =
                    if entry.identifier.allSatisfy(\.isWhitespace) {
                        .blankIdentifier(type: entry.typeName)
                    } else if let existing = state.makers[entry.identifier]?.typeName ?? added[entry.identifier] {
                        .duplicateIdentifier(entry.identifier, registered: existing, refused: entry.typeName)
                    } else {
                        nil
                    }
                if let problem {
                    state.refused.append(problem)
                    throw problem
                }
                added[entry.identifier] = entry.typeName
            }
            for entry in entries { state.makers[entry.identifier] = (entry.maker, entry.typeName) }
        }
    }

    private static func maker<C: Component<ViewModel>>(for type: C.Type) -> Maker {
        { C(context: $0) }
    }

    /// The registered identifiers, sorted.
    public var identifiers: [String] {
        state.withLock { $0.makers.keys.sorted() }
    }

    /// Whether a component is registered under `identifier`.
    public func contains(_ identifier: String) -> Bool {
        state.withLock { $0.makers[identifier] != nil }
    }

    /// Creates the component registered under `identifier` for `context`, or returns `nil`
    /// when none is.
    @MainActor
    public func make(_ identifier: String, context: any ComponentContext<ViewModel>) -> (any Component<ViewModel>)? {
        state.withLock { $0.makers[identifier]?.maker }?(context)
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
            where state.makers[identifier] == nil && !unregistered.contains(identifier) {
                unregistered.append(identifier)
            }
            return ComponentAudit(refused: state.refused, unregistered: unregistered)
        }
    }
}

/// A module's component types, listed in one place for a ``ComponentFactory`` to register,
/// one per line:
///
/// ```swift
/// enum DashboardComponents {
///     static let all = ComponentList<Dashboard> {
///         RevenueCard.self
///         UsersCard.self
///     }
/// }
/// ```
public struct ComponentList<ViewModel>: Sendable {
    /// The types' registrations, in the order listed.
    let registrations: [ComponentRegistration<ViewModel>]

    init(_ registrations: [ComponentRegistration<ViewModel>]) {
        self.registrations = registrations
    }

    /// The types `content` lists, each to be registered under its ``Component/identifier``.
    public init(@ComponentListBuilder<ViewModel> _ content: () -> ComponentList<ViewModel>) {
        self = content()
    }
}

/// Builds a ``ComponentList`` from component types, one per line.
///
/// A result builder rather than a list of `any Component<ViewModel>.Type`, whose metatypes
/// of a constrained existential need iOS 16 and macOS 13 at run time, or a parameter pack,
/// whose element types cannot yet be required to share the view model: each line is
/// checked on its own against the view model, on every release.
@resultBuilder
public enum ComponentListBuilder<ViewModel> {
    /// A component type, registered under its ``Component/identifier``.
    public static func buildExpression<C: Component<ViewModel>>(_ type: C.Type) -> ComponentList<ViewModel> {
        ComponentList([ComponentRegistration(type)])
    }

    /// The lines' types, in order.
    public static func buildBlock(_ lists: ComponentList<ViewModel>...) -> ComponentList<ViewModel> {
        ComponentList(lists.flatMap(\.registrations))
    }
}

/// How a factory creates the component registered under one identifier.
///
/// A struct, so that a factory can keep it in a dictionary on iOS 15 and macOS 12: a field
/// may hold a function of `any ComponentContext<ViewModel>` on every release, where a
/// collection or tuple holding one needs iOS 16 and macOS 13.
struct ComponentRegistration<ViewModel>: Sendable {
    let identifier: String
    /// The registered type's name, for ``ComponentFactoryError``s.
    let typeName: String
    let make: @MainActor @Sendable (any ComponentContext<ViewModel>) -> CreatedComponent<ViewModel>

    /// `type`, created with `init(context:)` under its ``Component/identifier``.
    init<C: Component<ViewModel>>(_ type: C.Type) {
        self.init(identifier: C.identifier) { C(context: $0) }
    }

    /// `make`, under `identifier`.
    init<C: Component<ViewModel>>(
        identifier: String, make: @escaping @MainActor @Sendable (any ComponentContext<ViewModel>) -> C
    ) {
        self.identifier = identifier
        typeName = String(reflecting: C.self)
        self.make = { CreatedComponent(make($0)) }
    }
}

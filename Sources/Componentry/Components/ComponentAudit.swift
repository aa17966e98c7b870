/// What ``ComponentFactory/audit(_:)`` found: refused registrations and identifiers that
/// layouts name but nobody registered.
public struct ComponentAudit: Hashable, Sendable {
    /// Every registration the factory refused (blank or duplicate identifiers), in order.
    public let refused: [ComponentFactoryError]

    /// Identifiers the audited layouts name that no component is registered under, in the
    /// order the layouts name them.
    public let unregistered: [String]

    /// Whether nothing was found.
    public var isClean: Bool {
        refused.isEmpty && unregistered.isEmpty
    }
}

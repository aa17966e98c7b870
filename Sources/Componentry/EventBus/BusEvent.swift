/// An event that travels on an ``EventBus``.
///
/// Any `Sendable` type can be an event; the type itself is the event's key, so a
/// subscriber names the type and receives values of it, with the handler's parameter
/// inferred:
///
/// ```swift
/// struct LoginEvent: BusEvent {
///     let userID: String
/// }
///
/// bus.on(LoginEvent.self).handle { event in print(event.userID) }
/// bus.post(LoginEvent(userID: "42"))
/// ```
///
/// Events are keyed by their static type: a subscriber to a class does not receive
/// instances of its subclasses posted as the subclass type.
public protocol BusEvent: Sendable {
    /// A second-level key inside the event type, or `nil` (the default).
    ///
    /// Subscribers may filter on one or several sub-types; a subscriber without a filter
    /// receives every event of the type. An event whose sub-type is `nil` reaches only
    /// subscribers without a filter.
    var subType: String? { get }
}

extension BusEvent {
    public var subType: String? { nil }
}

/// The name of an event that travels up a responder chain, typed by its payload.
///
/// Declare each event once, as a static member, so raisers and handlers name it the same
/// way and the payload type is checked at both ends:
///
/// ```swift
/// extension ResponderEvent<Date> {
///     static var dateSelected: Self { Self("dateSelected") }
/// }
///
/// cell.raise(.dateSelected, date)                          // a Date, checked
/// table.on(.dateSelected) { controller, date in controller.select(date) }
/// ```
///
/// Events are told apart by name and payload type together.
public struct ResponderEvent<Payload>: Hashable, Sendable, CustomStringConvertible {
    /// The event's name, as traces and the unhandled-event hook report it.
    public let name: String

    /// An event called `name` that carries a `Payload`.
    public init(_ name: String) {
        self.name = name
    }

    public var description: String {
        name
    }

    var key: ResponderEventKey {
        ResponderEventKey(name: name, payload: ObjectIdentifier(Payload.self))
    }
}

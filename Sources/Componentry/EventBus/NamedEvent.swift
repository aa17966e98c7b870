/// A loosely typed event: a string name and a payload dictionary.
///
/// Use it between modules that must not import each other's types; the name is the
/// event's ``BusEvent/subType``, so subscribing by name costs no more than a typed event.
///
/// ```swift
/// bus.on(named: "bill.created").handle { event in
///     let amount = event["amount", as: Double.self]
/// }
/// bus.post(named: "bill.created", payload: ["amount": 12.5])
/// ```
public struct NamedEvent: BusEvent {
    /// The event's name.
    public let name: String
    /// The values the poster attached.
    public let payload: [String: any Sendable]

    /// Creates an event named `name` carrying `payload`.
    public init(_ name: String, payload: [String: any Sendable] = [:]) {
        self.name = name
        self.payload = payload
    }

    public var subType: String? { name }

    /// The payload value for `key` if it has type `T`, else `nil`.
    public subscript<T>(_ key: String, as type: T.Type = T.self) -> T? {
        payload[key] as? T
    }
}

/// The value of an event property: what a JSON scalar can hold.
public enum PropertyValue: Hashable, Sendable {
    /// A JSON string.
    case string(String)
    /// A JSON number. Integers beyond ±2^53 lose precision, as in JavaScript.
    case number(Double)
    /// A JSON boolean.
    case bool(Bool)
    /// JSON `null`.
    case null
}

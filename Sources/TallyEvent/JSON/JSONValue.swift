/// A parsed JSON value, as ``JSONParser`` reads request bodies and stored properties.
///
/// Numbers keep their text's integer-ness: `12` is ``int(_:)``, `12.5` and `1e3` are
/// ``double(_:)``. Objects keep every member; see ``JSONObject`` for repeated keys.
@_spi(Wire) public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
    /// A value the parser could delimit but not read: a number out of range or outside
    /// JSON's grammar, or a container nested too deeply. It invalidates the event that holds
    /// it, with `reason` as the rejection's message.
    case invalid(String)

    /// Why a value holding ``invalid(_:)`` cannot be written.
    public struct Unreadable: Error, Equatable {
        /// The invalid value's reason.
        public let reason: String
    }

    /// The value's kind, for error messages ("expected a string, found a number").
    public var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        case .invalid(let reason): "an unreadable value (\(reason))"
        }
    }
}

/// A parsed JSON value, as read from request bodies.
///
/// Numbers keep their text's integer-ness: `12` is ``int(_:)``, `12.5` and `1e3` are
/// ``double(_:)``. Objects keep every member; see ``JSONObject`` for repeated keys.
enum JSONValue: Hashable, Sendable {
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

    /// The value's kind, for error messages ("expected a string, found a number").
    var kind: String {
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

/// The value of an event property: a string, a whole number, a floating-point number, a
/// boolean or null — the JSON scalars the ingest API accepts.
///
/// Whole numbers and floating-point numbers stay apart from the SDK to the store: `12` is
/// ``int(_:)`` and `12.0` is ``double(_:)`` wherever they are written or read. Literals
/// convert on their own, so call sites stay short:
///
/// ```swift
/// tracker.track("bill_created", ["amount": 12.5, "note": "lunch", "labels": 2, "shared": false])
/// ```
///
/// For values held in variables, use the cases directly: `.int(count)`, `.string(title)`.
public enum PropertyValue: Sendable, Hashable {
    /// A text value.
    case string(String)
    /// A whole number, written as a JSON integer.
    case int(Int)
    /// A floating-point number, written with a fraction or an exponent. Non-finite values
    /// (NaN, infinity) have no JSON form and are written as `null`.
    case double(Double)
    /// A boolean.
    case bool(Bool)
    /// An explicit null, for a property that is known to have no value.
    case null
}

extension PropertyValue {
    /// The property `json` can be: `nil` for an array, an object or an unreadable value.
    @_spi(Wire) public init?(_ json: JSONValue) {
        switch json {
        case .string(let text): self = .string(text)
        case .int(let number): self = .int(number)
        case .double(let number): self = .double(number)
        case .bool(let flag): self = .bool(flag)
        case .null: self = .null
        case .array, .object, .invalid: return nil
        }
    }

    /// The properties the JSON text `utf8` holds, as ``JSONWriter/object(_:)`` writes them:
    /// `nil` unless it is an object of scalars.
    @_spi(Wire) public static func properties(json utf8: [UInt8]) -> [String: PropertyValue]? {
        guard case .object(let object)? = try? JSONParser.parse(utf8) else { return nil }
        var properties: [String: PropertyValue] = [:]
        for member in object.members {
            guard let value = PropertyValue(member.value) else { return nil }
            properties[member.key] = value
        }
        return properties
    }
}

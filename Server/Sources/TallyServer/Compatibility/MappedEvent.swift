import Crypto
import Foundation
@_spi(Wire) import TallyEvent

/// An event another vendor's SDK sent, mapped field by field onto the event object of
/// `POST /v1/events`, so that ``EventValidator`` judges it by the same rules as the
/// collector's own events.
struct MappedEvent {
    /// The event id: see ``id(for:)``.
    var id: JSONValue
    var name: JSONValue?
    var timestamp: JSONValue?
    var userID: JSONValue?
    var sessionID: JSONValue?
    var appVersion: JSONValue?
    var platform: JSONValue?
    /// Flat properties, added with ``setProperty(_:_:)``.
    private(set) var properties = JSONObject()

    /// Adds a property: strings, numbers, booleans and nulls as they are, arrays and objects
    /// as their JSON text, since stored properties are flat.
    mutating func setProperty(_ key: String, _ value: JSONValue) {
        switch value {
        case .array, .object:
            var json = JSONWriter()
            do {
                try json.value(value)
                properties.append(key, .string(json.text))
            } catch {
                properties.append(key, .invalid(error.reason))
            }
        default: properties.append(key, value)
        }
    }

    /// Adds every member of `object` as a property, but those named in `excluded`.
    mutating func setProperties(of object: JSONObject, excluding excluded: Set<String> = []) {
        for member in object.members where !excluded.contains(member.key) { setProperty(member.key, member.value) }
    }

    /// The event object `POST /v1/events` takes.
    var value: JSONValue {
        let fields: [(String, JSONValue?)] = [
            ("id", id), ("name", name), ("timestamp", timestamp), ("user_id", userID), ("session_id", sessionID),
            ("app_version", appVersion), ("platform", platform), ("properties", .object(properties)),
        ]
        return .object(JSONObject(fields.compactMap { key, value in value.map { (key, $0) } }))
    }
}

extension MappedEvent {
    /// The stored event id for an SDK's own id, `value`: a UUID as it is; other text (Segment
    /// SDKs other than Python's send ids like `ajs-…`) or a number as a name-based UUID
    /// (version 5) of it, so that a retried event gets the same id and is stored once; a new
    /// random UUID when the SDK sent none, which no retry can match.
    static func id(for value: JSONValue?) -> JSONValue {
        switch value {
        case nil, .null?:
            return .string(UUID().uuidString)
        case .string(let text)? where UUID(eventID: text) != nil:
            return .string(text)
        case .string(let text)? where !text.isEmpty:
            return .string(nameBasedID(text).uuidString)
        case .int(let number)?:
            return .string(nameBasedID(String(number)).uuidString)
        case .invalid(let reason)?:
            return .invalid(reason)
        case let other?:
            return .invalid("the event's id must be a non-empty string or a whole number, not \(other.kind)")
        }
    }

    /// When the SDK sent its batch, from the batch's `value` (its `sent_at` or `sentAt`), with
    /// its text: the timestamp of events that have none. Without a valid one, `receivedAt`,
    /// which leaves the events' timestamps uncorrected for the device's clock.
    static func sendingTime(_ value: JSONValue?, receivedAt: Date) -> (date: Date, text: JSONValue) {
        if case .string(let text)? = value, let date = Date(wireTimestamp: text) { return (date, .string(text)) }
        return (receivedAt, .string(receivedAt.formatted(.wire(timeZone: .gmt))))
    }

    /// A user id sent as text, or as a whole number as some SDKs do, as text; anything else
    /// unchanged, for ``EventValidator`` to refuse.
    static func text(_ value: JSONValue?) -> JSONValue? {
        switch value {
        case .int(let number)?: .string(String(number))
        case .null?: nil
        default: value
        }
    }

    /// The RFC 9562 version 5 UUID of `name` in Tally's namespace for other SDKs' ids.
    private static func nameBasedID(_ name: String) -> UUID {
        var digest = Array(Insecure.SHA1.hash(data: namespace + Array(name.utf8)).prefix(16))
        digest[6] = digest[6] & 0x0F | 0x50
        digest[8] = digest[8] & 0x3F | 0x80
        return digest.withUnsafeBytes { UUID(uuid: $0.load(as: uuid_t.self)) }
    }

    /// 236957ED-C06B-4659-B127-4E04FEF68B11.
    private static let namespace: [UInt8] = [
        0x23, 0x69, 0x57, 0xED, 0xC0, 0x6B, 0x46, 0x59, 0xB1, 0x27, 0x4E, 0x04, 0xFE, 0xF6, 0x8B, 0x11,
    ]
}

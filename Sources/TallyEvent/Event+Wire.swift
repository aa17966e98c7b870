public import Foundation

/// The event as one object of the ingest API's `events`:
/// `{"id", "name", "timestamp", "user_id", "session_id", "app_version", "platform", "properties", "debug"}`.
extension Event {
    /// The event as one compact JSON object, without a line break: what the SDK's queue
    /// stores and splices into upload bodies, so it is written once. Property keys are
    /// sorted, so equal events write equal text; `debug` is written only when true.
    @_spi(Wire) public func wireJSON(timestampStyle: Date.ISO8601FormatStyle) -> [UInt8] {
        var json = JSONWriter(capacity: 256)
        json.raw(#"{"id":"#)
        json.string(id.uuidString.lowercased())
        json.raw(#","name":"#)
        json.string(name)
        json.raw(#","timestamp":"#)
        json.string(deviceTimestamp.formatted(timestampStyle))
        json.raw(#","user_id":"#)
        json.string(userID)
        if let sessionID {
            json.raw(#","session_id":"#)
            json.string(sessionID)
        }
        json.raw(#","app_version":"#)
        json.string(appVersion)
        json.raw(#","platform":"#)
        json.string(platform)
        json.raw(#","properties":"#)
        json.object(properties)
        if isDebug { json.raw(#","debug":true"#) }
        json.raw("}")
        return json.bytes
    }

    /// The event `json` describes, under the ingest API's rules, with ``timestamp`` and
    /// ``deviceTimestamp`` both the device's; the collector then corrects ``timestamp``.
    ///
    /// `id` (a UUID), `name` (``isValidName(_:)``), `timestamp` (ISO-8601 with an offset) and
    /// `user_id` (a non-empty string) are required; `session_id`, `app_version` and
    /// `platform` are optional strings, `debug` an optional boolean, `properties` an optional
    /// object of at most ``maximumProperties`` strings, numbers, booleans and nulls. Texts are at
    /// most ``maximumFieldLength`` bytes, and none, key included, may hold U+0000, which
    /// PostgreSQL cannot store: such an event is refused alone, on any database.
    @_spi(Wire) public init(wire json: JSONValue) throws(EventRejection) {
        if case .invalid(let reason) = json { throw EventRejection(.unreadable, "the event is unreadable: \(reason)") }
        guard case .object(let fields) = json else { throw EventRejection(.unreadable, "an event must be a JSON object") }
        guard case .string(let idText)? = fields["id"], let id = UUID(eventID: idText) else {
            throw EventRejection(.invalidID, "id must be a UUID string")
        }
        guard case .string(let name)? = fields["name"], Self.isValidName(name) else {
            throw EventRejection(.invalidName, "name must be a string of 1 to \(Self.maximumNameLength) characters, without U+0000")
        }
        guard case .string(let timestampText)? = fields["timestamp"], let timestamp = Date(wireTimestamp: timestampText) else {
            throw EventRejection(.invalidTimestamp, "timestamp must be an ISO-8601 string with an offset")
        }
        guard case .string(let userID)? = fields["user_id"], !userID.isEmpty, Self.isValidField(userID) else {
            throw EventRejection(
                .invalidUserID, "user_id must be a non-empty string of at most \(Self.maximumFieldLength) bytes, without U+0000")
        }

        func optionalText(_ key: String) throws(EventRejection) -> String? {
            switch fields[key] {
            case nil, .null?: return nil
            case .string(let text)? where Self.isValidField(text): return text
            default:
                throw EventRejection(
                    .invalidField, "\(key) must be a string of at most \(Self.maximumFieldLength) bytes without U+0000, or null")
            }
        }
        let sessionID = try optionalText("session_id")
        let appVersion = try optionalText("app_version")
        let platform = try optionalText("platform")
        let isDebug: Bool
        switch fields["debug"] {
        case nil, .null?: isDebug = false
        case .bool(let flag)?: isDebug = flag
        default: throw EventRejection(.invalidField, "debug must be a boolean or null")
        }

        var properties: [String: PropertyValue] = [:]
        switch fields["properties"] {
        case nil, .null?:
            break
        case .object(let object)? where object.members.count <= Self.maximumProperties:
            properties.reserveCapacity(object.members.count)
            for member in object.members {
                let (key, value) = (member.key, member.value)
                guard !Self.holdsNUL(key) else { throw EventRejection(.invalidProperties, "property keys must not hold U+0000") }
                switch value {
                case .string(let text) where Self.holdsNUL(text):
                    throw EventRejection(.invalidProperties, "property '\(key)' must not hold U+0000")
                case .invalid(let reason):
                    throw EventRejection(.invalidProperties, "property '\(key)': \(reason)")
                default:
                    guard let property = PropertyValue(value) else {
                        throw EventRejection(.invalidProperties, "property '\(key)' must be a string, number, boolean or null, not \(value.kind)")
                    }
                    properties[key] = property
                }
            }
        default:
            throw EventRejection(.invalidProperties, "properties must be an object of at most \(Self.maximumProperties) entries")
        }

        self.init(
            id: id, name: name, timestamp: timestamp, userID: userID, sessionID: sessionID, appVersion: appVersion ?? "",
            platform: platform ?? "", properties: properties, isDebug: isDebug)
    }

    /// Whether `text` may be a user id, session id, app version or platform: at most
    /// ``maximumFieldLength`` bytes, without U+0000.
    static func isValidField(_ text: String) -> Bool {
        text.utf8.count <= maximumFieldLength && !holdsNUL(text)
    }
}

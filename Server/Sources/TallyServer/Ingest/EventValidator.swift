import Foundation
import TallyStore

/// Turns one element of an ingest batch into a stored ``Event``, or says why not.
///
/// Rules (the HTTP contract): `id` (a UUID), `name` (1 to 100 characters), `timestamp`
/// (ISO-8601 with an offset) and `user_id` (a non-empty string) are required;
/// `session_id`, `app_version` and `platform` are optional strings; `properties` is an
/// optional object of strings, numbers, booleans and nulls. No text, key included, may hold
/// U+0000, which PostgreSQL cannot store: such an event is refused alone, on any database, so
/// that both accept the same events. The timestamp is corrected
/// for the device's clock skew, measured from the batch's `sent_at`; the corrected time
/// must lie within the app's accepted age and at most ``maximumFuture`` ahead.
struct EventValidator {
    /// The longest accepted `user_id`, `session_id`, `app_version` or `platform`.
    static let maximumFieldLength = 256
    /// The most properties an event may carry.
    static let maximumProperties = 100

    /// When the batch arrived, by the server's clock.
    let receivedAt: Date
    /// The server's clock minus the device's, at sending time.
    let skew: TimeInterval
    /// How old a corrected timestamp may be.
    let maximumAge: TimeInterval
    /// How far ahead of the server's clock a corrected timestamp may be.
    let maximumFuture: TimeInterval

    func validate(_ value: JSONValue) -> Result<Event, Rejection.Reason> {
        if case .invalid(let reason) = value { return .failure(.init(.unreadable, "the event is unreadable: \(reason)")) }
        guard case .object(let fields) = value else { return .failure(.init(.unreadable, "an event must be a JSON object")) }
        guard case .string(let idText)? = fields["id"], let id = EventID.parse(idText) else {
            return .failure(.init(.invalidID, "id must be a UUID string"))
        }
        guard case .string(let name)? = fields["name"], (1...100).contains(name.count), !name.holdsNUL else {
            return .failure(.init(.invalidName, "name must be a string of 1 to 100 characters, without U+0000"))
        }
        guard case .string(let timestampText)? = fields["timestamp"],
            let deviceTimestamp = Timestamp.parse(timestampText)
        else { return .failure(.init(.invalidTimestamp, "timestamp must be an ISO-8601 string with an offset")) }
        guard case .string(let userID)? = fields["user_id"], !userID.isEmpty,
            userID.utf8.count <= Self.maximumFieldLength, !userID.holdsNUL
        else {
            return .failure(
                .init(
                    .invalidUserID, "user_id must be a non-empty string of at most \(Self.maximumFieldLength) bytes, without U+0000"))
        }

        func optionalText(_ key: String) -> Result<String?, Rejection.Reason> {
            switch fields[key] {
            case nil, .null?: .success(nil)
            case .string(let text)? where text.utf8.count <= Self.maximumFieldLength && !text.holdsNUL: .success(text)
            default:
                .failure(.init(.invalidField, "\(key) must be a string of at most \(Self.maximumFieldLength) bytes without U+0000, or null"))
            }
        }
        let sessionID: String?
        let appVersion: String?
        let platform: String?
        switch (optionalText("session_id"), optionalText("app_version"), optionalText("platform")) {
        case (.success(let session), .success(let version), .success(let os)):
            (sessionID, appVersion, platform) = (session, version, os)
        case (.failure(let reason), _, _), (_, .failure(let reason), _), (_, _, .failure(let reason)):
            return .failure(reason)
        }

        var properties: [String: PropertyValue] = [:]
        switch fields["properties"] {
        case nil, .null?:
            break
        case .object(let object)? where object.members.count <= Self.maximumProperties:
            for member in object.members {
                let (key, value) = (member.key, member.value)
                guard !key.holdsNUL else { return .failure(.init(.invalidProperties, "property keys must not hold U+0000")) }
                switch value {
                case .string(let text):
                    guard !text.holdsNUL else { return .failure(.init(.invalidProperties, "property '\(key)' must not hold U+0000")) }
                    properties[key] = .string(text)
                case .int(let number): properties[key] = .number(Double(number))
                case .double(let number): properties[key] = .number(number)
                case .bool(let flag): properties[key] = .bool(flag)
                case .null: properties[key] = .null
                case .invalid(let reason):
                    return .failure(.init(.invalidProperties, "property '\(key)': \(reason)"))
                case .array, .object:
                    return .failure(.init(.invalidProperties, "property '\(key)' must be a string, number, boolean or null, not \(value.kind)"))
                }
            }
        default:
            return .failure(.init(.invalidProperties, "properties must be an object of at most \(Self.maximumProperties) entries"))
        }

        let timestamp = deviceTimestamp.addingTimeInterval(skew)
        if timestamp < receivedAt.addingTimeInterval(-maximumAge) {
            return .failure(.init(.tooOld, "timestamp is older than the accepted age of \((maximumAge / 86_400).formatted()) days"))
        }
        if timestamp > receivedAt.addingTimeInterval(maximumFuture) {
            return .failure(.init(.inFuture, "timestamp is more than \((maximumFuture / 60).formatted()) minutes in the future"))
        }

        return .success(
            Event(
                id: id, name: name, timestamp: timestamp, deviceTimestamp: deviceTimestamp, userID: userID,
                sessionID: sessionID, appVersion: appVersion ?? "", platform: platform ?? "", properties: properties
            ))
    }
}

extension String {
    /// Whether the text holds U+0000.
    fileprivate var holdsNUL: Bool { utf8.contains(0) }
}

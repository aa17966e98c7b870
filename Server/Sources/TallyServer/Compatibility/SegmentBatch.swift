import Foundation
@_spi(Wire) import TallyEvent

/// A body of Segment's HTTP tracking API (`POST /v1/batch`, `/v1/track`, `/v1/identify`,
/// `/v1/screen`, `/v1/page`), which RudderStack's and other SDKs speak too, with its messages
/// mapped onto the collector's events.
///
/// `/v1/batch` takes `{"batch": [message, …], "sentAt": …}`, each message with its `type`;
/// the other routes take one message of their type. Each message maps as follows:
///
/// | Segment | Tally |
/// |---|---|
/// | `messageId` | `id` (see ``MappedEvent/id(for:)``) |
/// | `track`: `event`; `screen`; `page`; `identify`, `group`, `alias` | `name`: the event; `screen_view`; `page_view`; the type |
/// | `userId`, else `anonymousId` | `user_id` |
/// | `timestamp` (else `originalTimestamp`, else the batch's `sentAt`, else the time of receipt) | `timestamp` |
/// | `context.app.version` | `app_version` |
/// | `context.os.name` | `platform` |
/// | `properties` (`track`, `screen`, `page`); `traits` (`identify`, `group`) | `properties`, arrays and objects as JSON text |
/// | `name` of a `screen` or `page`; `category` | the `screen` or `page` property; the `category` property |
/// | `groupId` of a `group`; `previousId` of an `alias` | the `group_id` or `previous_id` property |
struct SegmentBatch {
    /// The message types the API takes.
    static let types: Set<String> = ["track", "identify", "screen", "page", "group", "alias"]

    /// The write key in the body (`writeKey`), which is the app's ingest key; SDKs also send it
    /// as the user name of HTTP Basic authentication, which comes first.
    let writeKey: String?
    /// The mapped events, for ``IngestController/store(_:app:context:)``.
    let envelope: IngestEnvelope

    /// Reads `body`, received at `receivedAt`: a batch when `type` is `nil`, else one message of
    /// `type`. Unless the request was `authenticated` by a header, the body must hold the key.
    ///
    /// - Throws: 400 for a body that is not a batch or a message, 401 for a missing key, 413
    ///   for more than `maximumEvents` messages.
    init(body: [UInt8], type: String?, authenticated: Bool, receivedAt: Date, maximumEvents: Int) throws(APIError) {
        let json = try IngestEnvelope.parse(body)
        guard case .object(let outer) = json else { throw .badRequest("body must be a JSON object") }
        if case .string(let key)? = outer["writeKey"], !key.isEmpty { writeKey = key } else { writeKey = nil }
        guard authenticated || writeKey != nil else {
            throw .unauthorized("missing write key: send it as the user name of HTTP Basic authentication")
        }
        let messages: [JSONValue]
        if type != nil {
            messages = [json]
        } else if case .array(let batch)? = outer["batch"] {
            messages = batch
        } else {
            throw .badRequest("batch must be an array of messages")
        }
        guard messages.count <= maximumEvents else {
            throw .tooLarge("a batch holds at most \(maximumEvents) messages, this one \(messages.count)")
        }
        let sentAt = MappedEvent.sendingTime(outer["sentAt"], receivedAt: receivedAt)
        envelope = IngestEnvelope(
            sentAt: sentAt.date, events: messages.map { Self.event($0, type: type, defaultTimestamp: sentAt.text) })
    }

    /// One Segment message as the collector's event object; `type` overrides the message's own.
    static func event(_ value: JSONValue, type: String?, defaultTimestamp: JSONValue) -> JSONValue {
        guard case .object(let fields) = value else {
            if case .invalid = value { return value }
            return .invalid("a message must be a JSON object, not \(value.kind)")
        }
        var messageType = type
        if messageType == nil, case .string(let text)? = fields["type"] { messageType = text }
        guard let messageType, types.contains(messageType) else {
            return .invalid("type must be one of \(types.sorted().joined(separator: ", "))")
        }
        var event = MappedEvent(id: MappedEvent.id(for: fields["messageId"]))
        event.userID = MappedEvent.text(fields["userId"]) ?? MappedEvent.text(fields["anonymousId"])
        event.timestamp =
            [fields["timestamp"], fields["originalTimestamp"]].lazy.compactMap { $0 }.first { $0 != .null }
            ?? defaultTimestamp
        if case .object(let context)? = fields["context"] {
            if case .object(let app)? = context["app"] { event.appVersion = app["version"] }
            if case .object(let os)? = context["os"] { event.platform = os["name"] }
        }
        // The message's own properties first: the fields mapped onto properties win.
        let properties = fields[["identify", "group"].contains(messageType) ? "traits" : "properties"]
        switch properties {
        case nil, .null?: break
        case .object(let object)?: event.setProperties(of: object)
        case let other?: return .invalid("properties and traits must be an object, not \(other.kind)")
        }
        let mapped: [(property: String, field: String)]
        switch messageType {
        case "track":
            event.name = fields["event"]
            mapped = []
        case "screen", "page":
            event.name = .string(messageType == "screen" ? "screen_view" : "page_view")
            mapped = [(messageType, "name"), ("category", "category")]
        case "group":
            event.name = .string(messageType)
            mapped = [("group_id", "groupId")]
        case "alias":
            event.name = .string(messageType)
            mapped = [("previous_id", "previousId")]
        default:
            event.name = .string(messageType)
            mapped = []
        }
        for (property, field) in mapped {
            if let value = fields[field], value != .null { event.setProperty(property, value) }
        }
        return event.value
    }
}

import Foundation
@_spi(Wire) import TallyEvent

/// A body of PostHog's capture API (`POST /batch/`, `/capture/`, `/e/`, `/i/v0/e/`), read the
/// way PostHog's SDKs send it, with its events mapped onto the collector's own.
///
/// The body is `{"api_key": …, "batch": [event, …], "sent_at": …}` (what the server SDKs send
/// to `/batch/`), a single event object carrying its `api_key`, or an array of events. Each
/// event maps as follows:
///
/// | PostHog | Tally |
/// |---|---|
/// | `uuid` | `id` (see ``MappedEvent/id(for:)``) |
/// | `event`; `$screen` | `name`; `screen_view`, with `properties.$screen_name` as the `screen` property |
/// | `distinct_id` (or `properties.distinct_id`) | `user_id` |
/// | `timestamp` (else the batch's `sent_at`, else the time of receipt) | `timestamp` |
/// | `properties.$session_id` | `session_id` |
/// | `properties.$app_version` | `app_version` |
/// | `properties.$os` | `platform` |
/// | other `properties`, `$set`, `$set_once` | `properties`, arrays and objects as JSON text |
///
/// The project key in `properties.token` is never stored.
struct PostHogCapture {
    /// The project API key, which is the app's ingest key: the body's `api_key` or `token`,
    /// else the first event's, else the first event's `properties.token`.
    let apiKey: String?
    /// The mapped events, for ``IngestController/store(_:app:context:)``.
    let envelope: IngestEnvelope

    /// Properties that become fields of the event, or are not kept.
    private static let mappedProperties: Set<String> = ["$session_id", "$app_version", "$os", "token", "distinct_id"]

    /// Reads `body`, received at `receivedAt`.
    ///
    /// - Throws: 400 for a body that is not a capture body, 413 for more than `maximumEvents` events.
    init(body: [UInt8], receivedAt: Date, maximumEvents: Int) throws(APIError) {
        let json = try IngestEnvelope.parse(body)
        let outer: JSONObject?
        let events: [JSONValue]
        switch json {
        case .object(let object):
            outer = object
            if case .array(let batch)? = object["batch"] {
                events = batch
            } else if object["batch"] == nil {
                events = [json]
            } else {
                throw .badRequest("batch must be an array of events")
            }
        case .array(let array):
            (outer, events) = (nil, array)
        default:
            throw .badRequest("body must be an event, an array of events, or an object with a batch")
        }
        guard events.count <= maximumEvents else {
            throw .tooLarge("a batch holds at most \(maximumEvents) events, this one \(events.count)")
        }
        apiKey = Self.apiKey(outer: outer, first: events.first)
        let sentAt = MappedEvent.sendingTime(outer?["sent_at"], receivedAt: receivedAt)
        envelope = IngestEnvelope(sentAt: sentAt.date, events: events.map { Self.event($0, defaultTimestamp: sentAt.text) })
    }

    private static func apiKey(outer: JSONObject?, first: JSONValue?) -> String? {
        var event: JSONObject?
        if case .object(let object)? = first { event = object }
        var properties: JSONObject?
        if case .object(let object)? = event?["properties"] { properties = object }
        for candidate in [outer?["api_key"], outer?["token"], event?["api_key"], event?["token"], properties?["token"]] {
            if case .string(let key)? = candidate, !key.isEmpty { return key }
        }
        return nil
    }

    /// One PostHog event as the collector's event object.
    static func event(_ value: JSONValue, defaultTimestamp: JSONValue) -> JSONValue {
        guard case .object(let fields) = value else {
            if case .invalid = value { return value }
            return .invalid("an event must be a JSON object, not \(value.kind)")
        }
        let properties: JSONObject
        switch fields["properties"] {
        case nil, .null?: properties = JSONObject()
        case .object(let object)?: properties = object
        case let other?: return .invalid("properties must be an object, not \(other.kind)")
        }
        var event = MappedEvent(id: MappedEvent.id(for: fields["uuid"]))
        event.userID = MappedEvent.text(fields["distinct_id"] ?? properties["distinct_id"])
        event.timestamp = fields["timestamp"].flatMap { $0 == .null ? nil : $0 } ?? defaultTimestamp
        event.sessionID = properties["$session_id"]
        event.appVersion = properties["$app_version"]
        event.platform = properties["$os"]
        event.setProperties(of: properties, excluding: mappedProperties)
        for key in ["$set", "$set_once"] {
            if let value = fields[key] { event.setProperty(key, value) }
        }
        event.name = fields["event"]
        if case .string("$screen")? = fields["event"] {
            event.name = .string("screen_view")
            if let screen = properties["$screen_name"] { event.setProperty("screen", screen) }
        }
        return event.value
    }
}

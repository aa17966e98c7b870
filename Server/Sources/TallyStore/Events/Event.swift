public import Foundation

/// One analytics event, as validated by the ingest server and as stored.
///
/// An event is identified by ``id`` within its app: storing the same id twice keeps the first copy.
public struct Event: Hashable, Sendable {
    /// The client-generated identifier that makes retries idempotent.
    public var id: UUID
    /// The event name, for example `"screen_view"` or `"purchase"`.
    public var name: String
    /// When the event happened: the device's clock corrected by the server for skew.
    /// All metrics use this instant. Stored with millisecond precision.
    public var timestamp: Date
    /// The device's own clock at the event, as sent, kept for auditing skew corrections.
    /// Stored with millisecond precision.
    public var deviceTimestamp: Date
    /// The app's identifier for the user; metrics count distinct values of it.
    public var userID: String
    /// The session the event belongs to, if the SDK tracks sessions.
    public var sessionID: String?
    /// The app version that sent the event, for example `"2.4.1"`.
    public var appVersion: String
    /// The platform that sent the event, for example `"iOS"`.
    public var platform: String
    /// Flat properties. A `screen_view` event's string property `screen` feeds the screens metric.
    public var properties: [String: PropertyValue]

    /// Creates an event; `properties` defaults to none.
    public init(
        id: UUID, name: String, timestamp: Date, deviceTimestamp: Date, userID: String,
        sessionID: String?, appVersion: String, platform: String, properties: [String: PropertyValue] = [:]
    ) {
        self.id = id
        self.name = name
        self.timestamp = timestamp
        self.deviceTimestamp = deviceTimestamp
        self.userID = userID
        self.sessionID = sessionID
        self.appVersion = appVersion
        self.platform = platform
        self.properties = properties
    }
}

// Codable synthesis requires the conformance in the declaring file.
extension Event: Codable {
    /// The JSON keys, in the snake_case of the HTTP API and the NDJSON export.
    enum CodingKeys: String, CodingKey {
        case id, name, timestamp, platform, properties
        case deviceTimestamp = "device_timestamp"
        case userID = "user_id"
        case sessionID = "session_id"
        case appVersion = "app_version"
    }
}

public import Foundation

/// One analytics event, as it will be sent to the ingest server.
///
/// The tracker builds events for you in ``Tracker/track(_:_:)``; you meet them only in the
/// ``Tracker/Configuration/beforeSend`` hook, where you may redact ``properties`` or
/// ``userID`` before the event is written to disk. The identity of the event (``id``,
/// ``name``, ``timestamp``, session, app version, platform) is fixed when it is tracked.
public struct Event: Sendable, Hashable {
    /// A random identifier assigned when the event is tracked. It never changes, so the
    /// server can drop duplicates when an upload is retried.
    public let id: UUID
    /// The event name, 1 to 100 characters.
    public let name: String
    /// When the event was tracked. Sent in ISO-8601 with fractional seconds and the
    /// device's UTC offset.
    public let timestamp: Date
    /// The identified user, or the anonymous device id before ``Tracker/identify(_:)``.
    public var userID: String
    /// The session the event belongs to; a new session starts after the configured idle time.
    public let sessionID: UUID
    /// The app version from ``Tracker/Configuration/appVersion``.
    public let appVersion: String
    /// The platform from ``Tracker/Configuration/platform``.
    public let platform: String
    /// The event's properties, with the tracker's super-properties merged in (the event's
    /// own values win on a key clash).
    public var properties: [String: PropertyValue]

    /// Whether `name` is acceptable to the server: 1 to 100 characters.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && (name.utf8.count <= 100 || name.count <= 100)
    }
}

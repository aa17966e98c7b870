public import Componentry

/// New events became durable: ``count`` events of ``app`` (an app's id, or its
/// ``AppID/debug`` id), stored by this process or by another collector sharing the database
/// (see ``EventStore/commits()``).
///
/// A ``BusEvent`` whose sub-type is the app's id, so that a subscriber hears one app's
/// commits only: `bus.on(EventsCommitted.self).subType(EventsCommitted.subType(of: app))`.
public struct EventsCommitted: BusEvent, Hashable, Codable {
    /// The id the events are stored under.
    public let app: AppID
    /// How many new events were stored.
    public let count: Int

    /// The commit of `count` new events of `app`.
    public init(app: AppID, count: Int) { (self.app, self.count) = (app, count) }

    /// The app's id, as text: subscribers filter on it.
    public var subType: String? { Self.subType(of: app) }

    /// The sub-type of the commits of `app`.
    public static func subType(of app: AppID) -> String { String(app.rawValue) }
}

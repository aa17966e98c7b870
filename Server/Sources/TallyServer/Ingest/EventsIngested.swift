public import Componentry
public import TallyStore

/// Posted on the server's ``TallyServer/bus`` after a batch was committed, so that live
/// views (dashboards) refresh without polling the database.
///
/// Its sub-type is the app's id, so a subscriber can hear one app's events only:
/// `bus.on(EventsIngested.self).subType(EventsIngested.subType(of: app))`.
public struct EventsIngested: BusEvent {
    /// The app the events belong to.
    public let app: AppID
    /// How many new events were stored.
    public let accepted: Int
    /// New events per event name.
    public let names: [String: Int]

    /// The app's id, as text: subscribers filter on it.
    public var subType: String? { Self.subType(of: app) }

    /// The sub-type of the notices of `app`.
    public static func subType(of app: AppID) -> String { String(app.rawValue) }

    /// Creates the notice of `accepted` new events of `app`, `names` of them per event name.
    public init(app: AppID, accepted: Int, names: [String: Int]) {
        self.app = app
        self.accepted = accepted
        self.names = names
    }
}

public import Componentry
public import TallyStore

/// Posted on the server's ``TallyServer/bus`` after a batch was committed, so that live
/// views (dashboards) refresh without polling the database.
public struct EventsIngested: BusEvent {
    /// The app the events belong to.
    public let app: AppID
    /// How many new events were stored.
    public let accepted: Int
    /// New events per event name.
    public let names: [String: Int]

    /// Creates the notice of `accepted` new events of `app`, `names` of them per event name.
    public init(app: AppID, accepted: Int, names: [String: Int]) {
        self.app = app
        self.accepted = accepted
        self.names = names
    }
}

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
}

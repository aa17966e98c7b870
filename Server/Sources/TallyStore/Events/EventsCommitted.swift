/// New events became durable: ``count`` events of ``app`` (an app's id, or its
/// ``AppID/debug`` id), stored by this process or by another collector sharing the database
/// (see ``EventLog/commits()``).
///
/// The dashboard carries it on its event bus (TallyDashboard makes it a bus event whose
/// sub-type is the app's id).
public struct EventsCommitted: Hashable, Sendable, Codable {
    /// The id the events are stored under.
    public let app: AppID
    /// How many new events were stored.
    public let count: Int

    /// The commit of `count` new events of `app`.
    public init(app: AppID, count: Int) { (self.app, self.count) = (app, count) }
}

/// Events another process stored in the database this store shares (see
/// ``EventStore/ingestNotices()``).
public struct IngestNotice: Hashable, Sendable, Codable {
    /// The app the events belong to.
    public var app: AppID
    /// New events per event name; empty when there were too many names to tell.
    public var acceptedByName: [String: Int]
    /// How many new events were stored.
    public var accepted: Int

    /// The notice of `acceptedByName` new events of `app`.
    public init(app: AppID, acceptedByName: [String: Int]) {
        self.app = app
        self.acceptedByName = acceptedByName
        accepted = acceptedByName.values.reduce(0, +)
    }

    /// The notice of `accepted` new events of `app`, without their names.
    init(app: AppID, accepted: Int) {
        self.app = app
        acceptedByName = [:]
        self.accepted = accepted
    }
}

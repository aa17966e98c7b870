/// One day of ``EventStore/dailyCounts(app:event:from:to:timeZone:)``.
public struct DailyCount: Hashable, Sendable, Codable {
    /// The day, as `YYYY-MM-DD`.
    public var date: String
    /// Events of the name that day.
    public var events: Int
    /// Distinct users who sent the name that day.
    public var users: Int
}

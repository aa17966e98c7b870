/// One day of ``MetricStore/dailyCounts(of:in:)``.
public struct DailyCount: Hashable, Sendable, Codable {
    /// The day, as `YYYY-MM-DD`.
    public var date: String
    /// Events of the name that day.
    public var events: Int
    /// Distinct users who sent the name that day.
    public var users: Int
}

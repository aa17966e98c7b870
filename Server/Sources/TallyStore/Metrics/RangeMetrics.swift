/// Daily series over a range of local days, as returned by
/// ``MetricStore/range(_:)``.
///
/// Each series has one element per day of ``dates``, in the same order; days are defined as in
/// ``DayMetrics``. Encodes to JSON with the keys `from`, `to`, `tz`, `dates`, `dau`, `events`,
/// `users` and `new_users`.
public struct RangeMetrics: Hashable, Sendable {
    /// The first day, as `YYYY-MM-DD`.
    public var from: String
    /// The last day (included), as `YYYY-MM-DD`.
    public var to: String
    /// The IANA identifier of the time zone whose days these are.
    public var timeZone: String
    /// Every day from ``from`` through ``to``, as `YYYY-MM-DD`.
    public var dates: [String]
    /// Distinct users with an event, per day.
    public var dau: [Int]
    /// Events per day, per event name; names with no event in the range are absent.
    public var events: [String: [Int]]
    /// Distinct users with an event in the whole range.
    public var users: Int
    /// Users whose first event ever is in the range (with a filter, those of them with a
    /// matching event in it).
    public var newUsers: Int
}

// Codable synthesis requires the conformance in the declaring file.
extension RangeMetrics: Codable {
    /// The JSON keys of the metrics API.
    enum CodingKeys: String, CodingKey {
        case from, to, dates, dau, events, users
        case timeZone = "tz"
        case newUsers = "new_users"
    }
}

/// The metrics of one local day, as returned by ``MetricStore/day(_:)``.
///
/// All figures are exact counts over the stored (deduplicated) events whose ``Event/timestamp``
/// falls in the day, for day D running from local midnight to the next local midnight in
/// ``timeZone`` (23 or 25 hours across DST changes). "Users" are distinct ``Event/userID`` values.
/// Encodes to JSON with the keys `date`, `tz`, `dau`, `wau`, `mau`, `new_users`, `events`,
/// `per_user` (each `{avg, max}`), `versions` and `screens`.
public struct DayMetrics: Hashable, Sendable {
    /// The day, as `YYYY-MM-DD`.
    public var date: String
    /// The IANA identifier of the time zone whose day this is.
    public var timeZone: String
    /// Users with an event on D.
    public var dau: Int
    /// Users with an event on D-6 … D (seven local days).
    public var wau: Int
    /// Users with an event on D-29 … D (thirty local days).
    public var mau: Int
    /// Users whose first event ever falls on D.
    public var newUsers: Int
    /// Events on D per event name.
    public var events: [String: Int]
    /// Per event name, how many times the users who sent it on D sent it.
    public var perUser: [String: PerUserStats]
    /// Users with an event on D, by the app version of their last event that day
    /// (latest timestamp; between events at the same millisecond, the greatest version string).
    public var versions: [String: Int]
    /// `screen_view` events on D per value of their string property `screen`
    /// (events without one are not counted here, but are in ``events``).
    public var screens: [String: Int]
}

/// How often the users who sent an event name on a day sent it: see ``DayMetrics/perUser``.
public struct PerUserStats: Hashable, Sendable {
    /// Events of the name on the day divided by the distinct users who sent it that day (`avg` in JSON).
    public var average: Double
    /// The most events of the name any one user sent that day (`max` in JSON).
    public var maximum: Int
}

// Codable synthesis requires the conformances in the declaring file.
extension DayMetrics: Codable {
    /// The JSON keys of the metrics API.
    enum CodingKeys: String, CodingKey {
        case date, dau, wau, mau, events, versions, screens
        case timeZone = "tz"
        case newUsers = "new_users"
        case perUser = "per_user"
    }
}

extension PerUserStats: Codable {
    /// The JSON keys of the metrics API.
    enum CodingKeys: String, CodingKey {
        case average = "avg"
        case maximum = "max"
    }
}

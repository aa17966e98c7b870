/// A retention matrix, as returned by ``MetricStore/retention(_:period:)``:
/// users grouped by the period of their first event ever, and the share of each group with
/// an event in each later period.
///
/// Encodes to JSON with the keys `from`, `to`, `tz`, `period` and `cohorts`.
public struct Retention: Hashable, Sendable {
    /// The first day of the first period, as `YYYY-MM-DD`.
    public var from: String
    /// The last day of the last period (included), as `YYYY-MM-DD`.
    public var to: String
    /// The IANA identifier of the time zone whose days these are.
    public var timeZone: String
    /// The length of the periods.
    public var period: RetentionPeriod
    /// One cohort per period, oldest first; cohort `i` has a ``RetentionCohort/returning``
    /// count for each of the `cohorts.count - 1 - i` periods after it.
    public var cohorts: [RetentionCohort]
}

// Codable synthesis requires the conformance in the declaring file.
extension Retention: Codable {
    /// The JSON keys of the metrics API.
    enum CodingKeys: String, CodingKey {
        case from, to, period, cohorts
        case timeZone = "tz"
    }
}

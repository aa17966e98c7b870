/// What became of the events sent for an app on one local day, as returned by
/// ``EventStore/dataHealth(app:date:timeZone:)``: a dashboard's data health panel.
///
/// Counts are by the instant the server received each batch, not by event timestamps, and
/// cover the day from local midnight to the next, as in ``DayMetrics``. Encodes to JSON with
/// the keys `date`, `tz`, `accepted`, `duplicates`, `rejected` and `dropped`.
public struct DataHealth: Hashable, Sendable {
    /// The day, as `YYYY-MM-DD`.
    public var date: String
    /// The IANA identifier of the time zone whose day this is.
    public var timeZone: String
    /// Events stored.
    public var accepted: Int
    /// Valid events not stored again because their id was already stored (SDK retries).
    public var duplicates: Int
    /// Events the server refused, by reason code (for example `invalid_name`).
    public var rejected: [String: Int]
    /// Events SDKs reported dropping before delivery, by reason (for example `capped-bytes`).
    public var dropped: [String: Int]
}

// Codable synthesis requires the conformance in the declaring file.
extension DataHealth: Codable {
    /// The JSON keys.
    enum CodingKeys: String, CodingKey {
        case date, accepted, duplicates, rejected, dropped
        case timeZone = "tz"
    }
}

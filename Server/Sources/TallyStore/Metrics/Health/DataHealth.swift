/// What became of the events sent for an app on some local days, as returned by
/// ``MetricStore/dataHealth(_:)``: a dashboard's data health panel.
///
/// Counts are by the instant the server received each batch, not by event timestamps, and
/// cover the days from the first's local midnight to the midnight after the last, as in
/// ``DayMetrics``. Encodes to JSON with the keys `from`, `to`, `tz`, `accepted`, `duplicates`,
/// `rejected`, `dropped` and `ignored_purchases`.
public struct DataHealth: Hashable, Sendable {
    /// The first day, as `YYYY-MM-DD`.
    public var from: String
    /// The last day, included, as `YYYY-MM-DD`.
    public var to: String
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
    /// Purchase events stored that add no revenue, by reason (a ``Purchase/Problem``, for
    /// example `purchase_invalid_currency`); counted among ``accepted``.
    public var ignoredPurchases: [String: Int] = [:]
}

// Codable synthesis requires the conformance in the declaring file.
extension DataHealth: Codable {
    /// The JSON keys.
    enum CodingKeys: String, CodingKey {
        case from, to, accepted, duplicates, rejected, dropped
        case timeZone = "tz"
        case ignoredPurchases = "ignored_purchases"
    }

    /// Decodes the JSON of ``CodingKeys``; `ignored_purchases`, which earlier versions did not
    /// write, is empty when absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        from = try container.decode(String.self, forKey: .from)
        to = try container.decode(String.self, forKey: .to)
        timeZone = try container.decode(String.self, forKey: .timeZone)
        accepted = try container.decode(Int.self, forKey: .accepted)
        duplicates = try container.decode(Int.self, forKey: .duplicates)
        rejected = try container.decode([String: Int].self, forKey: .rejected)
        dropped = try container.decode([String: Int].self, forKey: .dropped)
        ignoredPurchases = try container.decodeIfPresent([String: Int].self, forKey: .ignoredPurchases) ?? [:]
    }
}

/// The numeric values of one property over a day's events of one name, as returned by
/// ``MetricStore/average(of:event:in:)``.
public struct NumericSummary: Hashable, Sendable, Codable {
    /// Events whose property is a number (events where it is missing, or not a number, are
    /// not counted).
    public var count: Int
    /// The mean of those numbers, `nil` when ``count`` is 0. Summed in double precision, so
    /// exact for integers and halves, and otherwise within rounding of the exact mean.
    public var average: Double?
    /// The largest of those numbers, `nil` when ``count`` is 0.
    public var maximum: Double?
}

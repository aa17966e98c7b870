/// The time grid rollups are keyed on: 15-minute UTC buckets, grouped into UTC days.
///
/// Every time zone offset in use since 1972 is a multiple of 15 minutes (+05:45 and +08:45
/// included), so every local day, in any zone and across DST changes, is a whole number
/// of buckets. That is what makes the rollups exact for any requested time zone.
enum Bucket {
    /// The bucket length.
    static let milliseconds: Int64 = 900_000
    /// Buckets in a UTC day.
    static let perDay: Int64 = 96

    /// The bucket holding the instant `milliseconds` since 1970.
    static func containing(milliseconds: Int64) -> Int64 {
        floorDivide(milliseconds, Self.milliseconds)
    }

    /// The UTC day (days since 1970) holding `bucket`.
    static func day(of bucket: Int64) -> Int64 {
        floorDivide(bucket, perDay)
    }

    /// `a / b` rounded towards negative infinity, so instants before 1970 land in the right bucket.
    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return a % b < 0 ? quotient - 1 : quotient
    }
}

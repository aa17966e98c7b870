/// The buckets of one UTC day in which something happened: 96 bits, one per ``Bucket``,
/// stored as two 48-bit integers so each fits SQLite's signed 64-bit integers
/// (`user_day.low_buckets` and `high_buckets`).
struct DayBuckets: Hashable {
    /// Bits for the buckets 0 to 47 of the day.
    var low: Int64 = 0
    /// Bits for the buckets 48 to 95 of the day.
    var high: Int64 = 0

    /// Marks bucket `slot` (0 to 95, counted from the day's start) active.
    mutating func insert(_ slot: Int64) {
        if slot < 48 { low |= 1 << slot } else { high |= 1 << (slot - 48) }
    }

    /// The buckets active in either value.
    func union(_ other: Self) -> Self {
        Self(low: low | other.low, high: high | other.high)
    }
}

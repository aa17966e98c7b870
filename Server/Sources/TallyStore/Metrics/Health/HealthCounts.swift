/// Data health counts not yet written: per app, 15-minute bucket of arrival (see ``Bucket``),
/// outcome and reason, as ``EventLog/recordIngest(app:at:accepted:duplicates:rejectedByReason:droppedByReason:)``
/// records them for ``GroupCommit`` to write with its next transaction.
///
/// Holds at most one entry per app, bucket, outcome and reason recorded since the last
/// successful write, so it stays as small as the `ingest_health` rows of that span.
struct HealthCounts: Sendable {
    /// What an `ingest_health` row counts: its `outcome` column.
    enum Outcome: Int64, Sendable {
        /// Events stored.
        case accepted = 0
        /// Valid events not stored again because their id was already stored.
        case duplicate = 1
        /// Events the server refused, by reason code.
        case rejected = 2
        /// Events an SDK reported dropping before they reached the server, by reason.
        case dropped = 3
        /// Purchase events stored that add no revenue, by ``Purchase/Problem``.
        case ignoredPurchase = 4
    }

    struct Key: Hashable, Sendable {
        var app: AppID
        var bucket: Int64
        var outcome: Outcome
        var reason: String
    }

    private(set) var counts: [Key: Int] = [:]

    var isEmpty: Bool { counts.isEmpty }

    /// Adds `count` (at least 0; a 0 adds nothing) to the entry of `key`, saturating at `Int.max`.
    mutating func add(_ count: Int, _ key: Key) {
        guard count > 0 else { return }
        let (sum, overflow) = counts[key, default: 0].addingReportingOverflow(count)
        counts[key] = overflow ? .max : sum
    }

    /// Adds every count of `other`.
    mutating func merge(_ other: Self) {
        for (key, count) in other.counts { add(count, key) }
    }
}

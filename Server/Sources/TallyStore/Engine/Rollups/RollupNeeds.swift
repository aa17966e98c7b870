/// The rollup rows a metrics computation reads, declared before it runs, so that a backend
/// that cannot read rows while the computation runs (PostgreSQL) fetches them first, in one
/// snapshot. Ranges are of 15-minute buckets (see ``Bucket``).
struct RollupNeeds: Sendable {
    /// The buckets whose event counts per name (`name_bucket`) are read.
    var names: Range<Int64>?
    /// The buckets whose screen views (`screen_bucket`) are read.
    var screens: Range<Int64>?
    /// The buckets whose per-user detail (`bucket_activity`) is read.
    var activity: Range<Int64>?
    /// The windows whose user sets ``RollupReader/activeUsers(in:)`` or
    /// ``RollupReader/firstSeenUsers(in:)`` read.
    var userWindows: [Range<Int64>] = []
    /// The texts whose `label` id is looked up.
    var labelTexts: [String] = []
    /// The milliseconds whose purchases (`purchase`) are read, with who paid before them.
    var purchases: Range<Int64>?

    /// The needs of a computation that reads `buckets` whole: counts, screens, detail and users.
    static func day(_ buckets: Range<Int64>) -> Self {
        RollupNeeds(names: buckets, screens: buckets, activity: buckets, userWindows: [buckets])
    }

    /// The buckets whose ``BucketLog`` is read (segments and funnels).
    var logs: [Range<Int64>] = []
    /// Whether segment keys, their per-day user sets and user property sets are read.
    var segmentKeys = false

    /// The needs of the same computation narrowed to a segment: the logs a scan of the buckets
    /// whose counts, screens or detail it reads takes, and for each window of users, the
    /// per-key user sets of its whole UTC days and what a scan of its edges takes (see
    /// ``RollupReader/segmentUsers(in:_:)`` and ``RollupReader/scanParts(of:)``), beside the
    /// first-seen sets it still reads.
    var segmented: RollupNeeds {
        var needs = self
        var scanned = [names, screens, activity].compactMap { $0 }
        for window in userWindows {
            for (period, range) in RollupReader.userSetRows(covering: window) where period == .bucket { scanned.append(range) }
        }
        for range in scanned {
            let parts = RollupReader.scanParts(of: range)
            needs.logs += parts.days.map { $0.day * Bucket.perDay..<($0.day + 1) * Bucket.perDay } + parts.logs
        }
        needs.segmentKeys = true
        return needs
    }

    /// A read of rows that were not declared.
    struct Unfetched: Error, CustomStringConvertible {
        var description: String { "a metrics computation read rollup rows it did not declare" }
    }
}

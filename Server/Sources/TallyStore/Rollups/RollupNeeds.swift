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

    /// The needs of a computation that reads `buckets` whole: counts, screens, detail and users.
    static func day(_ buckets: Range<Int64>) -> Self {
        RollupNeeds(names: buckets, screens: buckets, activity: buckets, userWindows: [buckets])
    }

    /// A read of rows that were not declared.
    struct Unfetched: Error, CustomStringConvertible {
        var description: String { "a metrics computation read rollup rows it did not declare" }
    }
}

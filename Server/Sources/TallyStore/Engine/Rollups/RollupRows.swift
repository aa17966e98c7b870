/// The rollup rows of one app that ``RollupReader`` computes metrics from: what each backend
/// reads, so that every metric is computed by the same code over SQLite and PostgreSQL.
///
/// Ranges are of 15-minute buckets (see ``Bucket``), or of UTC days for ``UserSetPeriod/day``.
/// Rows come in ascending order of their bucket (or day) unless a method says otherwise.
/// Blobs are lent to the body for the call only.
protocol RollupRows {
    /// Calls `body` with the bucket, `label` id and count of each `name_bucket` (event counts)
    /// or `screen_bucket` (screen views) row in `buckets`.
    func forEachCount(
        _ table: CountTable, in buckets: Range<Int64>, _ body: (_ bucket: Int64, _ label: Int64, _ count: Int64) throws -> Void
    ) throws

    /// Calls `body` with the bucket and the two blobs of each `bucket_activity` row (see
    /// ``BucketActivity``) in `buckets`, latest bucket first when `latestFirst`.
    func forEachActivity(
        in buckets: Range<Int64>, latestFirst: Bool,
        _ body: (_ bucket: Int64, _ names: UnsafeRawBufferPointer, _ versions: UnsafeRawBufferPointer) throws -> Void
    ) throws

    /// Calls `body` with the serialized ``UserSet`` in `column` of each row of `period`'s
    /// table (`bucket_users` or `day_users`) in `range`.
    func forEachUserSet(
        _ column: UserSetColumn, of period: UserSetPeriod, in range: Range<Int64>, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws

    /// The bucket and log (see ``BucketLog``) of each `bucket_log` row in `buckets`, its tails
    /// merged in (see ``BucketLogTails``), taken from the ``BucketLogCache`` where it holds the
    /// bucket's revision.
    func logs(in buckets: Range<Int64>) throws -> [(bucket: Int64, log: BucketLogCache.Log)]

    /// The bucket and revision of each `bucket_log` row in `buckets`, the greatest of the row's
    /// and its tails': what tells whether the ``logCache`` holds its log, or a day log made
    /// from it.
    func logRevisions(in buckets: Range<Int64>) throws -> [(bucket: Int64, revision: Int64)]

    /// The cache of the logs ``logs(in:)`` returns, and of the day logs made from them.
    var logCache: BucketLogCache { get }

    /// Calls `body` with the segment key and serialized ``UserSet`` of each `day_key_users`
    /// row of the UTC days `days`.
    func forEachDayKeyUsers(in days: Range<Int64>, _ body: (_ key: Int64, _ users: UnsafeRawBufferPointer) throws -> Void) throws

    /// The app's segment keys: each number's `label` ids (see ``SegmentDelta``).
    func segmentKeys() throws -> [Int64: [Int64]]

    /// Calls `body` with the value's `label` id and the serialized ``UserSet`` of each
    /// `trait_users` row of the user property whose name has `label` id `property`.
    func forEachTraitUsers(property: Int64, _ body: (_ value: Int64, _ users: UnsafeRawBufferPointer) throws -> Void) throws

    /// The purchases whose milliseconds are in `milliseconds`, ascending by time, and the users
    /// with a purchase of a positive amount before them (see ``PurchaseRows``).
    func purchases(in milliseconds: Range<Int64>) throws -> PurchaseRows

    /// How many users the app has: their numbers are below it.
    func userCount() throws -> Int

    /// The text of the `label` with id `id`.
    func label(_ id: Int64) throws -> String

    /// The id of the `label` with text `text`, or `nil` if no event name, version or screen has it.
    func labelID(_ text: String) throws -> Int64?
}

/// A rollup table of counts per bucket and label.
enum CountTable {
    /// `name_bucket`: events per name.
    case names
    /// `screen_bucket`: `screen_view` events per screen.
    case screens
}

/// The two user sets of `bucket_users` and `day_users` rows.
enum UserSetColumn {
    /// The users with an event in the period.
    case active
    /// The users whose first event ever is in the period.
    case first
}

/// The periods user sets are stored for.
enum UserSetPeriod {
    /// 15-minute buckets: `bucket_users`.
    case bucket
    /// UTC days: `day_users`.
    case day
}

/// What the writer knows is already committed in the rollup tables, so that
/// ``RollupDelta/write(_:app:cache:)`` can skip lookups and upserts that would change nothing.
///
/// Most of an app's events come from users seen moments ago, in a bucket and on a day
/// already marked active: without this memory each event would cost a user lookup and two
/// bitmap upserts that leave their rows as they were.
///
/// Every fact recorded here stays true whatever else is written later, by this process or
/// another one on the same database: a user's key never changes, `first_seen` only
/// decreases (the cache keeps an upper bound), and activity bits are only ever set. A stale
/// entry therefore never skips a needed write. Facts are recorded only from committed
/// transactions: ``GroupCommit`` hands a copy to each transaction and keeps it only once the
/// transaction committed.
///
/// Memory is bounded: a table that grows past ``maximumEntries`` is emptied and refills
/// from the next batches.
struct RollupCache {
    /// The most entries one table holds before it is emptied.
    static let maximumEntries = 1 << 18

    struct User {
        /// The user's key in `app_user`.
        var key: Int64
        /// The stored `first_seen`, or a later instant.
        var firstSeen: Int64
    }

    struct Period: Hashable {
        var app: AppID
        var period: Int64
        var user: Int64
    }

    struct AppUser: Hashable {
        var app: AppID
        var user: String
    }

    /// Interned `label` texts and their ids.
    var labels: [String: Int64] = [:]
    /// Users already in `app_user`.
    var users: [AppUser: User] = [:]
    /// Bucket bits already set in `user_day`, per app, UTC day and user key.
    var dayBuckets: [Period: DayBuckets] = [:]
    /// Day bits already set in `user_chunk`, per app, chunk and user key.
    var chunkDays: [Period: Int64] = [:]

    /// Empties the tables that outgrew ``maximumEntries``.
    mutating func trim() {
        if labels.count > Self.maximumEntries { labels = [:] }
        if users.count > Self.maximumEntries { users = [:] }
        if dayBuckets.count > Self.maximumEntries { dayBuckets = [:] }
        if chunkDays.count > Self.maximumEntries { chunkDays = [:] }
    }
}

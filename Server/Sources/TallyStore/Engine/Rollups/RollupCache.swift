/// What the writer knows is already committed in the rollup tables, so that
/// ``RollupDelta/write(_:app:cache:)`` can skip lookups that would change nothing.
///
/// Most of an app's events come from users seen moments ago: without this memory each of
/// them would cost a lookup in `app_user`.
///
/// Every fact recorded here stays true whatever else is written later, by this process or
/// another one on the same database: a user's number, a label's id and a segment key's number never change, and
/// `first_seen` only decreases (the cache keeps an upper bound). A stale entry therefore never
/// skips a needed write. Facts are recorded only from committed transactions: ``GroupCommit``
/// hands a copy to each transaction and keeps it only once the transaction committed.
///
/// Memory is bounded: a table that grows past ``maximumEntries`` is emptied and refills
/// from the next batches.
struct RollupCache {
    /// The most entries one table holds before it is emptied.
    static let maximumEntries = 1 << 18

    struct User {
        /// The user's number in its app (`app_user.number`).
        var number: UInt32
        /// The stored `first_seen`, or a later instant.
        var firstSeen: Int64
    }

    struct AppUser: Hashable {
        var app: AppID
        var user: String
    }

    /// The last deletion of a user's data (`user_deletion`'s greatest id) these facts hold
    /// after, on PostgreSQL: a deletion breaks the rule above (a deleted user's number, a
    /// deleted label's id), so a transaction that finds a later one starts from an empty cache.
    var deletions: Int64 = 0
    /// Interned `label` texts and their ids.
    var labels: [String: Int64] = [:]
    /// Users already in `app_user`.
    var users: [AppUser: User] = [:]
    /// Segment keys already in `segment_key`, by app and labels, and their numbers.
    var keys: [AppKey: Int64] = [:]

    struct AppKey: Hashable {
        var app: AppID
        var labels: [Int64]
    }

    init(deletions: Int64 = 0) {
        self.deletions = deletions
    }

    /// Empties the tables that outgrew ``maximumEntries``.
    mutating func trim() {
        if labels.count > Self.maximumEntries { labels = [:] }
        if users.count > Self.maximumEntries { users = [:] }
        if keys.count > Self.maximumEntries { keys = [:] }
    }
}

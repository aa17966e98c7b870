/// A bucket's newest events, kept in `bucket_log_tail` rows beside its `bucket_log` row until
/// they are folded into it.
///
/// Merged into the log at every commit, a bucket's new events cost the commit a decoding,
/// merging and encoding of the bucket's whole log, so a live bucket made every commit slower
/// as it grew: at 1,000 events a second, a commit near a bucket's end rewrote 4.5 MB. Instead,
/// a commit writes a bucket's new events as a tail, a ``BucketLog`` of their own with a
/// revision of their own, while the bucket's tails stay few (``maximumCount``) and small
/// beside its log (``appends(_:log:tails:)``); otherwise it folds the log, its tails and the
/// new events into the log and deletes the tails.
///
/// A tail may instead name a deleted user (its `removed_user`, with no events): the log and
/// the bucket's other tails still hold the user's events, but no reader sees them. Deleting a
/// user so costs a small row per bucket, not a rewrite of every log the user is in (3.6 s on
/// PostgreSQL for a user with 10,000 events in 5,760 busy buckets); the next fold of the
/// bucket drops the events, and ``UserDataStore/foldRemovals()`` folds every such bucket
/// soon after.
///
/// A reader takes a bucket's revision as the greatest of its log's and its tails', and reads
/// the log with its tails merged in and its removed users' events out
/// (``add(bucket:revision:removedUser:bytes:)``, then ``log(bucket:revision:bytes:)``),
/// cached by that revision as any log.
struct BucketLogTails {
    /// The most tails a bucket keeps: past it, the next commit folds them.
    static let maximumCount = 32

    /// The bytes a bucket's tails may take beside a log of any size: a log of less than twice
    /// this is folded only when its tails outgrow it, a larger one when they outgrow half of
    /// it.
    static let minimumFoldBytes = 64 << 10

    /// Whether a commit writes `newBytes` of a bucket's new events as a tail, beside a log of
    /// `logBytes` and `tails`, rather than folding them all into the log. (A bucket without a
    /// log gets one.) Each event is so encoded a few times on average, whatever the bucket's
    /// size.
    static func appends(_ newBytes: Int, log logBytes: Int, tails: (count: Int, bytes: Int)) -> Bool {
        tails.count < maximumCount && tails.bytes + newBytes <= max(logBytes / 2, minimumFoldBytes)
    }

    /// The revision of each row of `logs` raised to its bucket's latest tail's in `tails`:
    /// what a reader compares with the cache. (A tail is written only beside a log, and
    /// deleted with it.)
    static func revisions(
        logs: [(bucket: Int64, revision: Int64)], tails: [(bucket: Int64, revision: Int64)]
    ) -> [(bucket: Int64, revision: Int64)] {
        guard !tails.isEmpty else { return logs }
        let latest = Dictionary(tails, uniquingKeysWith: max)
        return logs.map { ($0.bucket, max($0.revision, latest[$0.bucket] ?? $0.revision)) }
    }

    /// The tails read so far, by bucket: their greatest revision, their events and the users
    /// they remove.
    private var tails: [Int64: (revision: Int64, entries: [BucketLog.Entry], removed: Set<UInt32>)] = [:]

    /// Adds a stored tail of `bucket`: its events, or the user it removes.
    ///
    /// - Throws: ``DamagedRollup`` if its events do not decode.
    mutating func add(bucket: Int64, revision: Int64, removedUser: UInt32?, bytes: UnsafeRawBufferPointer) throws {
        var tail = tails[bucket] ?? (revision, [], [])
        tail.revision = max(tail.revision, revision)
        if let removedUser {
            tail.removed.insert(removedUser)
        } else {
            tail.entries += try BucketLog(encoded: bytes).entries
        }
        tails[bucket] = tail
    }

    /// The log of `bucket` from its stored row, of `revision` and blob `bytes`, with the tails
    /// added for it merged in and the events of the users they remove taken out; it takes them.
    ///
    /// - Throws: ``DamagedRollup`` if the row does not decode.
    mutating func log(bucket: Int64, revision: Int64, bytes: UnsafeRawBufferPointer) throws -> BucketLogCache.Log {
        guard let tail = tails.removeValue(forKey: bucket) else { return try BucketLogCache.Log(revision: revision, bytes: bytes) }
        let revision = max(revision, tail.revision)
        if tail.entries.isEmpty {
            let kept = try BucketLog.removing(tail.removed, from: bytes)
            return try kept.map { try $0.withUnsafeBytes { try BucketLogCache.Log(revision: revision, bytes: $0) } }
                ?? BucketLogCache.Log(revision: revision, bytes: bytes)
        }
        var log = try BucketLog(encoded: bytes)
        log.merge(tail.entries)
        log.removeAll(users: tail.removed)
        return try log.encoded.withUnsafeBytes { try BucketLogCache.Log(revision: revision, bytes: $0) }
    }
}

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
/// A reader takes a bucket's revision as the greatest of its log's and its tails', and reads
/// the log with its tails merged in (``add(bucket:revision:bytes:)``, then
/// ``log(bucket:revision:bytes:)``), cached by that revision as any log.
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

    /// The tails read so far, by bucket: their greatest revision and their events.
    private var tails: [Int64: (revision: Int64, entries: [BucketLog.Entry])] = [:]

    /// Adds a stored tail of `bucket`.
    ///
    /// - Throws: ``DamagedRollup`` if it does not decode.
    mutating func add(bucket: Int64, revision: Int64, bytes: UnsafeRawBufferPointer) throws {
        let entries = try BucketLog(encoded: bytes).entries
        if let known = tails[bucket] {
            tails[bucket] = (max(known.revision, revision), known.entries + entries)
        } else {
            tails[bucket] = (revision, entries)
        }
    }

    /// The log of `bucket` from its stored row, of `revision` and blob `bytes`, with the tails
    /// added for it merged in; it takes them.
    ///
    /// - Throws: ``DamagedRollup`` if the row does not decode.
    mutating func log(bucket: Int64, revision: Int64, bytes: UnsafeRawBufferPointer) throws -> BucketLogCache.Log {
        guard let tail = tails.removeValue(forKey: bucket) else { return try BucketLogCache.Log(revision: revision, bytes: bytes) }
        var log = try BucketLog(encoded: bytes)
        log.merge(tail.entries)
        return try log.encoded.withUnsafeBytes { try BucketLogCache.Log(revision: max(revision, tail.revision), bytes: $0) }
    }
}

import GRDB

/// The queries metrics are computed from: each reads the rollups of one app over a range
/// of 15-minute buckets (see ``Bucket``) inside a read transaction.
///
/// Queries that return a row per user (tens of thousands for a day) step through
/// ``RawStatement``; the rest use GRDB's cached statements.
struct RollupReader {
    let db: Database
    let app: AppID

    /// Events per name over `buckets`, from `name_bucket`.
    func eventCounts(in buckets: Range<Int64>) throws -> [String: Int] {
        try counts(
            sql: """
                SELECT (SELECT text FROM label WHERE id = name_id), sum(count) FROM name_bucket
                WHERE app_id = ? AND bucket >= ? AND bucket < ? GROUP BY name_id
                """,
            in: buckets)
    }

    /// `screen_view` events per screen over `buckets`, from `screen_bucket`.
    func screenCounts(in buckets: Range<Int64>) throws -> [String: Int] {
        try counts(
            sql: "SELECT screen, sum(count) FROM screen_bucket WHERE app_id = ? AND bucket >= ? AND bucket < ? GROUP BY screen",
            in: buckets)
    }

    private func counts(sql: String, in buckets: Range<Int64>) throws -> [String: Int] {
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: sql), arguments: [app.rawValue, buckets.lowerBound, buckets.upperBound])
        var counts: [String: Int] = [:]
        while let row = try rows.next() { counts[row[0]] = row[1] }
        return counts
    }

    /// Calls `body` with the bucket, name (a `label` id) and count of each `name_bucket` row
    /// in `buckets`, in bucket order.
    func forEachNameCount(in buckets: Range<Int64>, _ body: (_ bucket: Int64, _ name: Int64, _ count: Int64) -> Void) throws {
        let rows = try bucketRows(
            sql: "SELECT bucket, name_id, count FROM name_bucket WHERE app_id = ?1 AND bucket >= ?2 AND bucket < ?3",
            in: buckets)
        while try rows.step() { body(rows.int64(at: 0), rows.int64(at: 1), rows.int64(at: 2)) }
    }

    /// Calls `body` with the bucket, user number and events of each user who sent `name` (a
    /// `label` id) in a bucket of `buckets`, in bucket order, from `bucket_activity`.
    func forEachUserCount(
        of name: Int64, in buckets: Range<Int64>, _ body: (_ bucket: Int64, _ user: Int64, _ count: Int) -> Void
    ) throws {
        let rows = try bucketRows(
            sql: "SELECT bucket, names FROM bucket_activity WHERE app_id = ?1 AND bucket >= ?2 AND bucket < ?3",
            in: buckets)
        while try rows.step() {
            let bucket = rows.int64(at: 0)
            try rows.withBlob(at: 1) { names in
                try BucketActivity.forEachSection(in: names) { label, entries in
                    guard label == name else { return }
                    try BucketActivity.forEachEntry(in: entries) { user, count in body(bucket, Int64(user), Int(count)) }
                }
            }
        }
    }

    /// The id of the `label` with text `text`, or `nil` if no event name or version has it.
    func labelID(_ text: String) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM label WHERE text = ?"), arguments: [text])
    }

    /// `sql`, whose parameters are the app (1) and the range's bounds (2 and 3), ready to step.
    func bucketRows(sql: String, in range: Range<Int64>) throws -> RawStatement {
        let rows = try RawStatement(db, sql: sql)
        rows.bind(app.rawValue, at: 1)
        rows.bind(range.lowerBound, at: 2)
        rows.bind(range.upperBound, at: 3)
        return rows
    }

    /// The text of the `label` with id `id`.
    func label(_ id: Int64) throws -> String {
        try String.fetchOne(db.cachedStatement(sql: "SELECT text FROM label WHERE id = ?"), arguments: [id]) ?? ""
    }

}

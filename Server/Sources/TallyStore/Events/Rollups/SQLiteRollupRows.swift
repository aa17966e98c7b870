import GRDB

/// The rollup rows of one app in a SQLite read transaction, stepped through cached
/// ``RawStatement``s.
struct SQLiteRollupRows: RollupRows {
    let db: Database
    let app: AppID
    /// The logs kept between reads.
    let logCache: BucketLogCache

    func forEachCount(
        _ table: CountTable, in buckets: Range<Int64>, _ body: (_ bucket: Int64, _ label: Int64, _ count: Int64) throws -> Void
    ) throws {
        let sql =
            switch table {
            case .names: "SELECT bucket, name_id, count FROM name_bucket WHERE app_id = ?1 AND bucket >= ?2 AND bucket < ?3"
            case .screens: "SELECT bucket, screen_id, count FROM screen_bucket WHERE app_id = ?1 AND bucket >= ?2 AND bucket < ?3"
            }
        let rows = try self.rows(sql: sql, in: buckets)
        while try rows.step() { try body(rows.int64(at: 0), rows.int64(at: 1), rows.int64(at: 2)) }
    }

    func forEachActivity(
        in buckets: Range<Int64>, latestFirst: Bool,
        _ body: (_ bucket: Int64, _ names: UnsafeRawBufferPointer, _ versions: UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let rows = try self.rows(
            sql: """
                SELECT bucket, names, versions FROM bucket_activity WHERE app_id = ?1 AND bucket >= ?2 AND bucket < ?3
                ORDER BY bucket \(latestFirst ? "DESC" : "ASC")
                """,
            in: buckets)
        while try rows.step() {
            try rows.withBlob(at: 1) { names in try rows.withBlob(at: 2) { try body(rows.int64(at: 0), names, $0) } }
        }
    }

    func forEachUserSet(
        _ column: UserSetColumn, of period: UserSetPeriod, in range: Range<Int64>, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let name =
            switch column {
            case .active: "active"
            case .first: "first"
            }
        let sql =
            switch period {
            case .bucket: "SELECT \(name) FROM bucket_users WHERE app_id = ?1 AND bucket >= ?2 AND bucket < ?3"
            case .day: "SELECT \(name) FROM day_users WHERE app_id = ?1 AND day >= ?2 AND day < ?3"
            }
        let rows = try self.rows(sql: sql, in: range)
        while try rows.step() { try rows.withBlob(at: 0, body) }
    }

    func logRevisions(in buckets: Range<Int64>) throws -> [(bucket: Int64, revision: Int64)] {
        func revisions(_ sql: String) throws -> [(bucket: Int64, revision: Int64)] {
            var revisions: [(bucket: Int64, revision: Int64)] = []
            let rows = try self.rows(sql: sql, in: buckets)
            while try rows.step() { revisions.append((rows.int64(at: 0), rows.int64(at: 1))) }
            return revisions
        }
        return BucketLogTails.revisions(
            logs: try revisions("SELECT bucket, revision FROM bucket_log WHERE app_id = ?1 AND bucket >= ?2 AND bucket < ?3"),
            tails: try revisions(
                "SELECT bucket, max(revision) FROM bucket_log_tail WHERE app_id = ?1 AND bucket >= ?2 AND bucket < ?3 GROUP BY bucket"))
    }

    func logs(in buckets: Range<Int64>) throws -> [(bucket: Int64, log: BucketLogCache.Log)] {
        let revisions = try logRevisions(in: buckets)
        let logs = logCache.logs(app: app, revisions)
        var fetched: [(bucket: Int64, log: BucketLogCache.Log)] = []
        for range in revisions.missing(logs) {
            var tails = BucketLogTails()
            let tailRows = try self.rows(
                sql: "SELECT bucket, revision, events, removed_user FROM bucket_log_tail WHERE app_id = ?1 AND bucket >= ?2 AND bucket < ?3",
                in: range)
            while try tailRows.step() {
                let removed = tailRows.isNull(at: 3) ? nil : UInt32(truncatingIfNeeded: tailRows.int64(at: 3))
                try tailRows.withBlob(at: 2) {
                    try tails.add(bucket: tailRows.int64(at: 0), revision: tailRows.int64(at: 1), removedUser: removed, bytes: $0)
                }
            }
            let rows = try self.rows(
                sql: "SELECT bucket, revision, events FROM bucket_log WHERE app_id = ?1 AND bucket >= ?2 AND bucket < ?3", in: range)
            while try rows.step() {
                let bucket = rows.int64(at: 0)
                fetched.append(try rows.withBlob(at: 2) { (bucket, try tails.log(bucket: bucket, revision: rows.int64(at: 1), bytes: $0)) })
            }
        }
        return logCache.completing(logs, of: revisions, app: app, with: fetched)
    }

    func forEachDayKeyUsers(in days: Range<Int64>, _ body: (_ key: Int64, _ users: UnsafeRawBufferPointer) throws -> Void) throws {
        let rows = try self.rows(sql: "SELECT key, users FROM day_key_users WHERE app_id = ?1 AND day >= ?2 AND day < ?3", in: days)
        while try rows.step() { try rows.withBlob(at: 1) { try body(rows.int64(at: 0), $0) } }
    }

    func segmentKeys() throws -> [Int64: [Int64]] {
        let rows = try RawStatement.cached(db, sql: "SELECT id, labels FROM segment_key WHERE app_id = ?1")
        rows.bind(app.rawValue, at: 1)
        var keys: [Int64: [Int64]] = [:]
        while try rows.step() { keys[rows.int64(at: 0)] = try rows.withBlob(at: 1) { try SegmentKey.decoded($0) } }
        return keys
    }

    func forEachTraitUsers(property: Int64, _ body: (_ value: Int64, _ users: UnsafeRawBufferPointer) throws -> Void) throws {
        let rows = try RawStatement.cached(db, sql: "SELECT value_id, users FROM trait_users WHERE app_id = ?1 AND property_id = ?2")
        rows.bind(app.rawValue, at: 1)
        rows.bind(property, at: 2)
        while try rows.step() { try rows.withBlob(at: 1) { try body(rows.int64(at: 0), $0) } }
    }

    func purchases(in milliseconds: Range<Int64>) throws -> PurchaseRows {
        var purchases = PurchaseRows()
        let rows = try self.rows(
            sql: """
                SELECT timestamp, user_number, segment_key, currency, amount FROM purchase
                WHERE app_id = ?1 AND timestamp >= ?2 AND timestamp < ?3 ORDER BY timestamp
                """,
            in: milliseconds)
        while try rows.step() {
            purchases.rows.append(
                PurchaseRow(
                    timestamp: rows.int64(at: 0), user: UInt32(rows.int64(at: 1)), key: rows.int64(at: 2),
                    currency: rows.withText(at: 3) { String(decoding: $0, as: UTF8.self) }, micros: rows.int64(at: 4)))
        }
        let earlier = try RawStatement.cached(
            db, sql: "SELECT DISTINCT user_number FROM purchase WHERE app_id = ?1 AND timestamp < ?2 AND amount > 0")
        earlier.bind(app.rawValue, at: 1)
        earlier.bind(milliseconds.lowerBound, at: 2)
        while try earlier.step() { purchases.earlierPayers.insert(UInt32(earlier.int64(at: 0))) }
        return purchases
    }

    func userCount() throws -> Int {
        let rows = try RawStatement.cached(db, sql: "SELECT coalesce(max(number) + 1, 0) FROM app_user WHERE app_id = ?1")
        rows.bind(app.rawValue, at: 1)
        return Int(try rows.executeReturningRow { $0.int64(at: 0) })
    }

    func label(_ id: Int64) throws -> String {
        try String.fetchOne(db.cachedStatement(sql: "SELECT text FROM label WHERE id = ?"), arguments: [id]) ?? ""
    }

    func labelID(_ text: String) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM label WHERE text = ?"), arguments: [text])
    }

    /// `sql`, whose parameters are the app (1) and the range's bounds (2 and 3), ready to step.
    private func rows(sql: String, in range: Range<Int64>) throws -> RawStatement {
        let rows = try RawStatement.cached(db, sql: sql)
        rows.bind(app.rawValue, at: 1)
        rows.bind(range.lowerBound, at: 2)
        rows.bind(range.upperBound, at: 3)
        return rows
    }
}

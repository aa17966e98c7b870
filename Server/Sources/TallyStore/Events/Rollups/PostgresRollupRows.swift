import Logging
import NIOCore
import PostgresNIO

/// The rollup rows of one app that a computation declared (see ``RollupNeeds``), fetched
/// from PostgreSQL in one read-only snapshot before the computation runs.
///
/// Each table is read with one statement; a read of rows outside what was fetched throws
/// ``RollupNeeds/Unfetched`` rather than answer from missing rows.
struct PostgresRollupRows: RollupRows {
    private struct Counts {
        var range: Range<Int64>
        /// Bucket, label, count; ascending by bucket.
        var rows: [(bucket: Int64, label: Int64, count: Int64)]
    }

    private var names: Counts?
    private var screens: Counts?
    private var activityRange: Range<Int64>?
    /// Ascending by bucket.
    private var activity: [(bucket: Int64, names: ByteBuffer, versions: ByteBuffer)] = []
    /// The fetched ranges of each user set table, and their rows ascending by period.
    private var userSetRanges: [UserSetPeriod: [Range<Int64>]] = [:]
    private var userSets: [UserSetPeriod: [(period: Int64, active: ByteBuffer, first: ByteBuffer)]] = [:]
    /// The fetched ranges of `bucket_log`, and its rows ascending by bucket.
    private var logRanges: [Range<Int64>] = []
    private var logs: [(bucket: Int64, log: BucketLogCache.Log)] = []
    /// The app's number of users, fetched with the logs.
    private var users: Int?
    /// The app's segment keys, if fetched (see ``RollupNeeds/segmentKeys``).
    private var keys: [Int64: [Int64]]?
    /// The fetched ranges of `day_key_users` (the whole UTC days of the user windows), and
    /// its rows ascending by day.
    private var dayKeyRanges: [Range<Int64>] = []
    private var dayKeyUsers: [(day: Int64, key: Int64, users: ByteBuffer)] = []
    /// The app's `trait_users` rows by property, fetched with the segment keys.
    private var traitUsers: [Int64: [(value: Int64, users: ByteBuffer)]] = [:]
    private var labels: [Int64: String] = [:]
    /// The fetched range of `purchase`, and its rows.
    private var purchaseRange: Range<Int64>?
    private var purchases = PurchaseRows()
    private var labelIDs: [String: Int64] = [:]
    let logCache: BucketLogCache

    private init(logCache: BucketLogCache) {
        self.logCache = logCache
    }

    /// Fetches what `needs` declares for `app` over `connection`, inside a transaction the
    /// caller opened; `knownLabels` spares fetching label texts already known, and `logCache`
    /// the logs it holds at the rows' revisions.
    static func fetch(
        _ needs: RollupNeeds, app id: AppID, knownLabels: [Int64: String], logCache: BucketLogCache, _ connection: PostgresConnection,
        logger: Logger
    ) async throws -> Self {
        var rows = PostgresRollupRows(logCache: logCache)
        let app = id.rawValue
        func query<each Column: PostgresDecodable & Sendable>(
            _ query: PostgresQuery, as types: (repeat each Column).Type
        ) async throws -> [(repeat each Column)] {
            try await connection.query(query, logger: logger).collect(as: types)
        }
        /// The `count` rows of `table`, keyed by `keyColumn`, in `range`'s buckets.
        func counts(_ table: String, keyColumn: String, in range: Range<Int64>) async throws -> Counts {
            let rows = try await query(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT bucket, \(keyColumn), count FROM \(table) WHERE app_id = $1 AND bucket >= $2 AND bucket < $3 ORDER BY bucket
                        """,
                    binds: try PostgresBindings(binding: app, range.lowerBound, range.upperBound)),
                as: (Int64, Int64, Int64).self)
            return Counts(range: range, rows: rows.map { ($0.0, $0.1, $0.2) })
        }
        if let range = needs.names { rows.names = try await counts("name_bucket", keyColumn: "name_id", in: range) }
        if let range = needs.screens { rows.screens = try await counts("screen_bucket", keyColumn: "screen_id", in: range) }
        if let range = needs.activity {
            rows.activityRange = range
            rows.activity = try await query(
                """
                SELECT bucket, names, versions FROM bucket_activity
                WHERE app_id = \(app) AND bucket >= \(range.lowerBound) AND bucket < \(range.upperBound) ORDER BY bucket
                """, as: (Int64, ByteBuffer, ByteBuffer).self
            ).map { ($0.0, $0.1, $0.2) }
        }
        var wanted: [UserSetPeriod: [Range<Int64>]] = [:]
        for window in needs.userWindows {
            for (period, range) in RollupReader.userSetRows(covering: window) { wanted[period, default: []].append(range) }
        }
        for (period, ranges) in wanted {
            let merged = Self.merged(ranges)
            rows.userSetRanges[period] = merged
            let (table, column) =
                switch period {
                case .bucket: ("bucket_users", "bucket")
                case .day: ("day_users", "day")
                }
            rows.userSets[period] = try await query(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT t.\(column), t.active, t.first FROM \(table) t
                        JOIN unnest($2::bigint[], $3::bigint[]) AS r (low, high) ON t.\(column) >= r.low AND t.\(column) < r.high
                        WHERE t.app_id = $1 ORDER BY t.\(column)
                        """,
                    binds: try PostgresBindings(binding: app, merged.map(\.lowerBound), merged.map(\.upperBound))
                ), as: (Int64, ByteBuffer, ByteBuffer).self
            ).map { ($0.0, $0.1, $0.2) }
        }
        if !needs.logs.isEmpty {
            rows.logRanges = Self.merged(needs.logs)
            let ranges = (rows.logRanges.map(\.lowerBound), rows.logRanges.map(\.upperBound))
            // Each bucket's revision is the greatest of its log's and its tails' (see
            // ``BucketLogTails``); `tailed` tells whether it has tails to fetch with its log.
            let stored = try await query(
                """
                SELECT bucket, max(revision), bool_or(tailed) FROM (
                    SELECT t.bucket, t.revision, false AS tailed FROM bucket_log t
                    JOIN unnest(\(ranges.0), \(ranges.1)) AS r (low, high) ON t.bucket >= r.low AND t.bucket < r.high
                    WHERE t.app_id = \(app)
                    UNION ALL
                    SELECT t.bucket, t.revision, true FROM bucket_log_tail t
                    JOIN unnest(\(ranges.0), \(ranges.1)) AS r (low, high) ON t.bucket >= r.low AND t.bucket < r.high
                    WHERE t.app_id = \(app)
                ) AS stored GROUP BY bucket ORDER BY bucket
                """, as: (Int64, Int64, Bool).self)
            let revisions = stored.map { (bucket: $0.0, revision: $0.1) }
            let logs = logCache.logs(app: id, revisions)
            var fetched: [(bucket: Int64, log: BucketLogCache.Log)] = []
            let missing = zip(stored, logs).filter { $1 == nil }.map(\.0)
            if !missing.isEmpty {
                var tails = BucketLogTails()
                let tailed = missing.filter(\.2).map(\.0)
                if !tailed.isEmpty {
                    for (bucket, revision, events, removed) in try await query(
                        "SELECT bucket, revision, events, removed_user FROM bucket_log_tail WHERE app_id = \(app) AND bucket = ANY(\(tailed))",
                        as: (Int64, Int64, ByteBuffer, Int64?).self)
                    {
                        try events.withUnsafeReadableBytes {
                            try tails.add(bucket: bucket, revision: revision, removedUser: removed.map { UInt32(truncatingIfNeeded: $0) }, bytes: $0)
                        }
                    }
                }
                for (bucket, revision, events) in try await query(
                    "SELECT bucket, revision, events FROM bucket_log WHERE app_id = \(app) AND bucket = ANY(\(missing.map(\.0)))",
                    as: (Int64, Int64, ByteBuffer).self)
                {
                    fetched.append((bucket, try events.withUnsafeReadableBytes { try tails.log(bucket: bucket, revision: revision, bytes: $0) }))
                }
            }
            rows.logs = logCache.completing(logs, of: revisions, app: id, with: fetched)
            let users: Int64 = try await query("SELECT coalesce(max(number) + 1, 0) FROM app_user WHERE app_id = \(app)", as: Int64.self)[0]
            rows.users = Int(users)
        }
        if needs.segmentKeys {
            var keys: [Int64: [Int64]] = [:]
            for (number, labels) in try await query("SELECT id, labels FROM segment_key WHERE app_id = \(app)", as: (Int64, ByteBuffer).self) {
                keys[number] = try labels.withUnsafeReadableBytes { try SegmentKey.decoded($0) }
            }
            rows.keys = keys
            rows.dayKeyRanges = rows.userSetRanges[.day] ?? []
            if !rows.dayKeyRanges.isEmpty {
                rows.dayKeyUsers = try await query(
                    """
                    SELECT t.day, t.key, t.users FROM day_key_users t
                    JOIN unnest(\(rows.dayKeyRanges.map(\.lowerBound)), \(rows.dayKeyRanges.map(\.upperBound))) AS r (low, high)
                        ON t.day >= r.low AND t.day < r.high
                    WHERE t.app_id = \(app) ORDER BY t.day, t.key
                    """, as: (Int64, Int64, ByteBuffer).self
                ).map { ($0.0, $0.1, $0.2) }
            }
            for (property, value, users) in try await query(
                "SELECT property_id, value_id, users FROM trait_users WHERE app_id = \(app)", as: (Int64, Int64, ByteBuffer).self)
            {
                rows.traitUsers[property, default: []].append((value, users))
            }
        }
        if let range = needs.purchases {
            rows.purchaseRange = range
            rows.purchases.rows = try await query(
                """
                SELECT timestamp, user_number, segment_key, currency, amount FROM purchase
                WHERE app_id = \(app) AND timestamp >= \(range.lowerBound) AND timestamp < \(range.upperBound) ORDER BY timestamp
                """, as: (Int64, Int64, Int64, String, Int64).self
            ).map { PurchaseRow(timestamp: $0.0, user: UInt32($0.1), key: $0.2, currency: $0.3, micros: $0.4) }
            let earlier: [Int64] = try await query(
                "SELECT DISTINCT user_number FROM purchase WHERE app_id = \(app) AND timestamp < \(range.lowerBound) AND amount > 0",
                as: Int64.self)
            rows.purchases.earlierPayers = Set(earlier.map { UInt32($0) })
        }
        if !needs.labelTexts.isEmpty {
            for (id, text) in try await query("SELECT id, text FROM label WHERE text = ANY(\(needs.labelTexts))", as: (Int64, String).self) {
                rows.labelIDs[text] = id
                rows.labels[id] = text
            }
        }
        var ids = Set((rows.names?.rows ?? []).map(\.label)).union((rows.screens?.rows ?? []).map(\.label))
        for row in rows.activity {
            for blob in [row.names, row.versions] {
                try blob.withUnsafeReadableBytes { bytes in try BucketActivity.forEachSection(in: bytes) { label, _ in ids.insert(label) } }
            }
        }
        // Segments name events, screens and versions through the logs and keys, and compare
        // the texts of key labels and user property values.
        for row in rows.logs {
            ids.formUnion(row.log.view.sections.map(\.name))
            ids.formUnion(row.log.view.screens)
        }
        for labels in (rows.keys ?? [:]).values { ids.formUnion(labels) }
        for (property, values) in rows.traitUsers {
            ids.insert(property)
            ids.formUnion(values.map(\.value))
        }
        ids.remove(0)
        for id in ids where rows.labels[id] == nil { rows.labels[id] = knownLabels[id] }
        let missing = ids.filter { rows.labels[$0] == nil }
        if !missing.isEmpty {
            for (id, text) in try await query("SELECT id, text FROM label WHERE id = ANY(\(Array(missing)))", as: (Int64, String).self) {
                rows.labels[id] = text
            }
        }
        // Every label of the rows answers `labelID` too: a screen or property a computation
        // looks up without declaring it (a funnel step's `screen` condition) is found if any
        // fetched row holds it, and no fetched row can match it otherwise.
        for (id, text) in rows.labels where rows.labelIDs[text] == nil { rows.labelIDs[text] = id }
        return rows
    }

    /// The texts of the labels fetched, to remember for later snapshots.
    var fetchedLabels: [Int64: String] { labels }

    func forEachCount(
        _ table: CountTable, in buckets: Range<Int64>, _ body: (_ bucket: Int64, _ label: Int64, _ count: Int64) throws -> Void
    ) throws {
        let counts =
            switch table {
            case .names: names
            case .screens: screens
            }
        guard let counts, buckets.isEmpty || counts.range.contains(buckets.lowerBound) && buckets.upperBound <= counts.range.upperBound
        else { throw RollupNeeds.Unfetched() }
        for row in Self.slice(counts.rows, key: \.bucket, in: buckets) { try body(row.bucket, row.label, row.count) }
    }

    func forEachActivity(
        in buckets: Range<Int64>, latestFirst: Bool,
        _ body: (_ bucket: Int64, _ names: UnsafeRawBufferPointer, _ versions: UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard let range = activityRange, buckets.isEmpty || range.contains(buckets.lowerBound) && buckets.upperBound <= range.upperBound
        else { throw RollupNeeds.Unfetched() }
        let rows = Self.slice(activity, key: \.bucket, in: buckets)
        for row in latestFirst ? Array(rows.reversed()) : Array(rows) {
            try row.names.withUnsafeReadableBytes { names in try row.versions.withUnsafeReadableBytes { try body(row.bucket, names, $0) } }
        }
    }

    func forEachUserSet(
        _ column: UserSetColumn, of period: UserSetPeriod, in range: Range<Int64>, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard (userSetRanges[period] ?? []).contains(where: { $0.lowerBound <= range.lowerBound && range.upperBound <= $0.upperBound })
        else { throw RollupNeeds.Unfetched() }
        for row in Self.slice(userSets[period] ?? [], key: \.period, in: range) {
            switch column {
            case .active: try row.active.withUnsafeReadableBytes(body)
            case .first: try row.first.withUnsafeReadableBytes(body)
            }
        }
    }

    func logs(in buckets: Range<Int64>) throws -> [(bucket: Int64, log: BucketLogCache.Log)] {
        guard buckets.isEmpty || logRanges.contains(where: { $0.lowerBound <= buckets.lowerBound && buckets.upperBound <= $0.upperBound })
        else { throw RollupNeeds.Unfetched() }
        return Array(Self.slice(logs, key: \.bucket, in: buckets))
    }

    func logRevisions(in buckets: Range<Int64>) throws -> [(bucket: Int64, revision: Int64)] {
        try logs(in: buckets).map { ($0.bucket, $0.log.revision) }
    }

    func purchases(in milliseconds: Range<Int64>) throws -> PurchaseRows {
        guard let purchaseRange, purchaseRange == milliseconds else { throw RollupNeeds.Unfetched() }
        return purchases
    }

    func forEachDayKeyUsers(in days: Range<Int64>, _ body: (_ key: Int64, _ users: UnsafeRawBufferPointer) throws -> Void) throws {
        guard keys != nil,
            days.isEmpty || dayKeyRanges.contains(where: { $0.lowerBound <= days.lowerBound && days.upperBound <= $0.upperBound })
        else { throw RollupNeeds.Unfetched() }
        for row in Self.slice(dayKeyUsers, key: \.day, in: days) { try row.users.withUnsafeReadableBytes { try body(row.key, $0) } }
    }

    func userCount() throws -> Int {
        guard let users else { throw RollupNeeds.Unfetched() }
        return users
    }

    func segmentKeys() throws -> [Int64: [Int64]] {
        guard let keys else { throw RollupNeeds.Unfetched() }
        return keys
    }

    func forEachTraitUsers(property: Int64, _ body: (_ value: Int64, _ users: UnsafeRawBufferPointer) throws -> Void) throws {
        guard keys != nil else { throw RollupNeeds.Unfetched() }
        for row in traitUsers[property] ?? [] { try row.users.withUnsafeReadableBytes { try body(row.value, $0) } }
    }

    func label(_ id: Int64) throws -> String {
        guard let text = labels[id] else { throw RollupNeeds.Unfetched() }
        return text
    }

    func labelID(_ text: String) throws -> Int64? {
        labelIDs[text]
    }

    /// The rows of `rows`, ascending by `key`, whose key is in `range` (binary search).
    private static func slice<Row>(_ rows: [Row], key: (Row) -> Int64, in range: Range<Int64>) -> ArraySlice<Row> {
        func firstIndex(notBelow value: Int64) -> Int {
            var low = 0
            var high = rows.count
            while low < high {
                let middle = (low + high) / 2
                if key(rows[middle]) < value { low = middle + 1 } else { high = middle }
            }
            return low
        }
        return rows[firstIndex(notBelow: range.lowerBound)..<firstIndex(notBelow: range.upperBound)]
    }

    /// `ranges` sorted, with overlapping or touching ranges joined.
    private static func merged(_ ranges: [Range<Int64>]) -> [Range<Int64>] {
        var merged: [Range<Int64>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}

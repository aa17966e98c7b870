import GRDB

/// The rollup changes caused by the events one transaction accepted (every batch of a group
/// commit, see ``GroupCommit``), aggregated in memory so the database sees one upsert per
/// distinct rollup key instead of one per event.
///
/// Every rollup merge is commutative (sums, minima, maxima, bitwise or), so rollups do not
/// depend on the order events arrive in.
struct RollupDelta {
    private struct Labeled: Hashable {
        var bucket: Int64
        var label: String
    }

    private struct UserName: Hashable {
        var bucket: Int64
        var user: String
        var name: String
    }

    private struct UserPeriod: Hashable {
        var period: Int64
        var user: String
    }

    /// Per user, name and bucket: the event count and the last event's timestamp and version,
    /// where "last" orders by timestamp, then by version, so ties resolve the same way however
    /// events arrive.
    private struct Activity {
        var count: Int64
        var lastTimestamp: Int64
        var lastVersion: String

        mutating func merge(timestamp: Int64, version: String) {
            count += 1
            if (timestamp, version) > (lastTimestamp, lastVersion) { (lastTimestamp, lastVersion) = (timestamp, version) }
        }
    }

    private var firstSeen: [String: Int64] = [:]
    private var names: [Labeled: Int64] = [:]
    private var screens: [Labeled: Int64] = [:]
    private var activity: [UserName: Activity] = [:]
    private var userDays: [UserPeriod: (low: Int64, high: Int64)] = [:]
    private var userChunks: [UserPeriod: Int64] = [:]

    /// Adds an accepted event that happened `timestamp` milliseconds after 1970.
    mutating func add(_ event: Event, timestamp: Int64) {
        let bucket = Bucket.containing(milliseconds: timestamp)
        let day = Bucket.floorDivide(bucket, Bucket.perDay)
        let slot = bucket - day * Bucket.perDay
        let chunk = Bucket.floorDivide(day, Bucket.daysPerChunk)
        let user = event.userID

        firstSeen[user] = min(firstSeen[user] ?? timestamp, timestamp)
        names[Labeled(bucket: bucket, label: event.name), default: 0] += 1
        if event.name == "screen_view", case .string(let screen)? = event.properties["screen"] {
            screens[Labeled(bucket: bucket, label: screen), default: 0] += 1
        }
        activity[UserName(bucket: bucket, user: user, name: event.name), default: Activity(
            count: 0, lastTimestamp: timestamp, lastVersion: event.appVersion)
        ].merge(timestamp: timestamp, version: event.appVersion)
        userDays[UserPeriod(period: day, user: user), default: (0, 0)].low |= slot < 48 ? 1 << slot : 0
        userDays[UserPeriod(period: day, user: user), default: (0, 0)].high |= slot < 48 ? 0 : 1 << (slot - 48)
        userChunks[UserPeriod(period: chunk, user: user), default: 0] |= 1 << (day - chunk * Bucket.daysPerChunk)
    }

    /// Merges the delta into the rollup tables of `app`. Call inside the transaction that inserted the events.
    func write(_ db: Database, app: AppID) throws {
        let userKeys = try resolveUsers(db, app: app)
        let labels = try Self.resolveLabels(db, Set(names.keys.map(\.label)).union(activity.values.map(\.lastVersion)))
        let upserts: [(sql: String, rows: [StatementArguments])] = [
            (
                """
                INSERT INTO name_bucket (app_id, bucket, name_id, count) VALUES (?, ?, ?, ?)
                ON CONFLICT (app_id, bucket, name_id) DO UPDATE SET count = count + excluded.count
                """,
                names.map { [app.rawValue, $0.key.bucket, labels[$0.key.label], $0.value] }
            ),
            (
                """
                INSERT INTO screen_bucket (app_id, bucket, screen, count) VALUES (?, ?, ?, ?)
                ON CONFLICT (app_id, bucket, screen) DO UPDATE SET count = count + excluded.count
                """,
                screens.map { [app.rawValue, $0.key.bucket, $0.key.label, $0.value] }
            ),
            (
                // SQLite evaluates every SET expression on the row as it was before the update.
                // Equal timestamps are rare: only then are the version texts looked up and compared.
                """
                INSERT INTO user_name_bucket (app_id, bucket, user_key, name_id, count, last_timestamp, last_version_id)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (app_id, bucket, user_key, name_id) DO UPDATE SET
                    count = count + excluded.count,
                    last_timestamp = max(last_timestamp, excluded.last_timestamp),
                    last_version_id = CASE
                        WHEN excluded.last_timestamp > last_timestamp THEN excluded.last_version_id
                        WHEN excluded.last_timestamp < last_timestamp THEN last_version_id
                        WHEN (SELECT text FROM label WHERE id = excluded.last_version_id)
                            > (SELECT text FROM label WHERE id = last_version_id) THEN excluded.last_version_id
                        ELSE last_version_id END
                """,
                activity.map { key, value in
                    [app.rawValue, key.bucket, userKeys[key.user], labels[key.name], value.count, value.lastTimestamp,
                     labels[value.lastVersion]]
                }
            ),
            (
                """
                INSERT INTO user_day (app_id, day, user_key, low_buckets, high_buckets) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (app_id, day, user_key) DO UPDATE SET
                    low_buckets = low_buckets | excluded.low_buckets, high_buckets = high_buckets | excluded.high_buckets
                """,
                userDays.map { [app.rawValue, $0.key.period, userKeys[$0.key.user], $0.value.low, $0.value.high] }
            ),
            (
                """
                INSERT INTO user_chunk (app_id, chunk, user_key, days) VALUES (?, ?, ?, ?)
                ON CONFLICT (app_id, chunk, user_key) DO UPDATE SET days = days | excluded.days
                """,
                userChunks.map { [app.rawValue, $0.key.period, userKeys[$0.key.user], $0.value] }
            ),
        ]
        for (sql, rows) in upserts where !rows.isEmpty {
            let statement = try db.makeStatement(sql: sql)
            for arguments in rows { try statement.execute(arguments: arguments) }
        }
    }

    /// The `label` id of each text, inserting the texts not yet interned.
    private static func resolveLabels(_ db: Database, _ texts: Set<String>) throws -> [String: Int64] {
        let select = try db.makeStatement(sql: "SELECT id FROM label WHERE text = ?")
        let insert = try db.makeStatement(sql: "INSERT INTO label (text) VALUES (?)")
        var ids: [String: Int64] = [:]
        for text in texts {
            if let id = try Int64.fetchOne(select, arguments: [text]) {
                ids[text] = id
            } else {
                try insert.execute(arguments: [text])
                ids[text] = db.lastInsertedRowID
            }
        }
        return ids
    }

    /// Inserts new users and lowers `first_seen` where this batch holds an earlier event;
    /// returns every batch user's key.
    private func resolveUsers(_ db: Database, app: AppID) throws -> [String: Int64] {
        let select = try db.makeStatement(sql: "SELECT key, first_seen FROM app_user WHERE app_id = ? AND user_id = ?")
        let insert = try db.makeStatement(sql: "INSERT INTO app_user (app_id, user_id, first_seen) VALUES (?, ?, ?)")
        let lower = try db.makeStatement(sql: "UPDATE app_user SET first_seen = ? WHERE key = ?")
        var keys: [String: Int64] = [:]
        for (user, timestamp) in firstSeen {
            if let row = try Row.fetchOne(select, arguments: [app.rawValue, user]) {
                let key: Int64 = row[0]
                keys[user] = key
                if timestamp < row[1] as Int64 { try lower.execute(arguments: [timestamp, key]) }
            } else {
                try insert.execute(arguments: [app.rawValue, user, timestamp])
                keys[user] = db.lastInsertedRowID
            }
        }
        return keys
    }
}

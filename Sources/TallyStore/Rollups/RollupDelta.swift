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

    private struct UserPeriod: Hashable {
        var period: Int64
        var user: String
    }

    /// Per user and bucket: the events per name and the last event's timestamp and version,
    /// where "last" orders by timestamp, then by version, so ties resolve the same way however
    /// events arrive.
    private struct Activity {
        /// A user sends few distinct names in a bucket, so a list beats a dictionary.
        var counts: [(name: String, count: Int64)] = []
        var lastTimestamp: Int64
        var lastVersion: String

        mutating func add(name: String, timestamp: Int64, version: String) {
            if let index = counts.firstIndex(where: { $0.name == name }) {
                counts[index].count += 1
            } else {
                counts.append((name, 1))
            }
            if (timestamp, version) > (lastTimestamp, lastVersion) { (lastTimestamp, lastVersion) = (timestamp, version) }
        }
    }

    private var firstSeen: [String: Int64] = [:]
    private var names: [Labeled: Int64] = [:]
    private var screens: [Labeled: Int64] = [:]
    private var activity: [UserPeriod: Activity] = [:]
    private var userDays: [UserPeriod: DayBuckets] = [:]
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
        activity[UserPeriod(period: bucket, user: user), default: Activity(lastTimestamp: timestamp, lastVersion: event.appVersion)]
            .add(name: event.name, timestamp: timestamp, version: event.appVersion)
        userDays[UserPeriod(period: day, user: user), default: DayBuckets()].insert(slot)
        userChunks[UserPeriod(period: chunk, user: user), default: 0] |= 1 << (day - chunk * Bucket.daysPerChunk)
    }

    /// Merges the delta into the rollup tables of `app`. Call inside the transaction that
    /// inserted the events.
    ///
    /// Skips the user lookups and bitmap upserts that `cache` shows would change nothing,
    /// and records in `cache` what this write stores: keep the cache only if the
    /// transaction commits.
    func write(_ db: Database, app: AppID, cache: inout RollupCache) throws {
        let users = try resolveUsers(db, app: app, cache: &cache)
        let labels = try Self.resolveLabels(
            db, Set(names.keys.map(\.label)).union(activity.values.map(\.lastVersion)), cache: &cache)
        try writeCounts(db, app: app, labels: labels)
        try writeActivity(db, app: app, users: users, labels: labels)
        try writeActiveDays(db, app: app, users: users, cache: &cache)
    }

    /// Adds the events per name and per screen to `name_bucket` and `screen_bucket`.
    private func writeCounts(_ db: Database, app: AppID, labels: [String: Int64]) throws {
        try Self.add(names, to: "name_bucket", keyColumn: "name_id", db, app: app) { $0.bind(labels[$1]!, at: 3) }
        try Self.add(screens, to: "screen_bucket", keyColumn: "screen", db, app: app) { $0.bind($1, at: 3) }
    }

    /// Adds `counts` to the `count` column of `table`, keyed by app, bucket and `keyColumn`,
    /// whose value `bindKey` binds (parameter 3) from a key's label.
    private static func add(
        _ counts: [Labeled: Int64], to table: String, keyColumn: String, _ db: Database, app: AppID,
        bindKey: (RawStatement, String) -> Void
    ) throws {
        guard !counts.isEmpty else { return }
        let upsert = try RawStatement(db, sql: """
            INSERT INTO \(table) (app_id, bucket, \(keyColumn), count) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT (app_id, bucket, \(keyColumn)) DO UPDATE SET count = count + excluded.count
            """)
        upsert.bind(app.rawValue, at: 1)
        for (key, count) in counts {
            upsert.bind(key.bucket, at: 2)
            bindKey(upsert, key.label)
            upsert.bind(count, at: 4)
            try upsert.execute()
        }
    }

    /// Appends each user's events per name to `user_bucket` and keeps the later last event.
    private func writeActivity(_ db: Database, app: AppID, users: [String: Int64], labels: [String: Int64]) throws {
        // SQLite evaluates every SET expression on the row as it was before the update.
        // Equal timestamps are rare: only then are the version texts looked up and compared.
        let upsert = try RawStatement(db, sql: """
            INSERT INTO user_bucket (app_id, bucket, user_key, names, last_timestamp, last_version_id)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            ON CONFLICT (app_id, bucket, user_key) DO UPDATE SET
                names = names || excluded.names,
                last_timestamp = max(last_timestamp, excluded.last_timestamp),
                last_version_id = CASE
                    WHEN excluded.last_timestamp > last_timestamp THEN excluded.last_version_id
                    WHEN excluded.last_timestamp < last_timestamp THEN last_version_id
                    WHEN (SELECT text FROM label WHERE id = excluded.last_version_id)
                        > (SELECT text FROM label WHERE id = last_version_id) THEN excluded.last_version_id
                    ELSE last_version_id END
            """)
        upsert.bind(app.rawValue, at: 1)
        var packed: [UInt8] = []
        for (key, value) in activity {
            packed.removeAll(keepingCapacity: true)
            for (name, count) in value.counts { NameCounts.append(name: labels[name]!, count: count, to: &packed) }
            upsert.bind(key.period, at: 2)
            upsert.bind(users[key.user]!, at: 3)
            upsert.bind(packed, at: 4)
            upsert.bind(value.lastTimestamp, at: 5)
            upsert.bind(labels[value.lastVersion]!, at: 6)
            try upsert.execute()
        }
    }

    /// Sets the activity bits of `user_day` and `user_chunk` that `cache` does not show set.
    private func writeActiveDays(_ db: Database, app: AppID, users: [String: Int64], cache: inout RollupCache) throws {
        let days = try RawStatement(db, sql: """
            INSERT INTO user_day (app_id, day, user_key, low_buckets, high_buckets) VALUES (?1, ?2, ?3, ?4, ?5)
            ON CONFLICT (app_id, day, user_key) DO UPDATE SET
                low_buckets = low_buckets | excluded.low_buckets, high_buckets = high_buckets | excluded.high_buckets
            """)
        days.bind(app.rawValue, at: 1)
        for (key, buckets) in userDays {
            let period = RollupCache.Period(app: app, period: key.period, user: users[key.user]!)
            let known = cache.dayBuckets[period] ?? DayBuckets()
            guard known.union(buckets) != known else { continue }
            days.bind(key.period, at: 2)
            days.bind(period.user, at: 3)
            days.bind(buckets.low, at: 4)
            days.bind(buckets.high, at: 5)
            try days.execute()
            cache.dayBuckets[period] = known.union(buckets)
        }

        let chunks = try RawStatement(db, sql: """
            INSERT INTO user_chunk (app_id, chunk, user_key, days) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT (app_id, chunk, user_key) DO UPDATE SET days = days | excluded.days
            """)
        chunks.bind(app.rawValue, at: 1)
        for (key, days) in userChunks {
            let period = RollupCache.Period(app: app, period: key.period, user: users[key.user]!)
            let known = cache.chunkDays[period] ?? 0
            guard known | days != known else { continue }
            chunks.bind(key.period, at: 2)
            chunks.bind(period.user, at: 3)
            chunks.bind(days, at: 4)
            try chunks.execute()
            cache.chunkDays[period] = known | days
        }
    }

    /// The `label` id of each text, inserting the texts not yet interned.
    private static func resolveLabels(_ db: Database, _ texts: Set<String>, cache: inout RollupCache) throws -> [String: Int64] {
        var ids: [String: Int64] = [:]
        var missing: [String] = []
        for text in texts {
            if let id = cache.labels[text] { ids[text] = id } else { missing.append(text) }
        }
        guard !missing.isEmpty else { return ids }
        let intern = try RawStatement(db, sql: """
            INSERT INTO label (text) VALUES (?1) ON CONFLICT (text) DO UPDATE SET text = text RETURNING id
            """)
        for text in missing {
            intern.bind(text, at: 1)
            let id = try intern.executeReturningRow { $0.int64(at: 0) }
            ids[text] = id
            cache.labels[text] = id
        }
        return ids
    }

    /// Inserts new users and lowers `first_seen` where this delta holds an earlier event;
    /// returns every user's key.
    private func resolveUsers(_ db: Database, app: AppID, cache: inout RollupCache) throws -> [String: Int64] {
        let upsert = try RawStatement(db, sql: """
            INSERT INTO app_user (app_id, user_id, first_seen) VALUES (?1, ?2, ?3)
            ON CONFLICT (app_id, user_id) DO UPDATE SET first_seen = min(first_seen, excluded.first_seen)
            RETURNING key, first_seen
            """)
        upsert.bind(app.rawValue, at: 1)
        var keys: [String: Int64] = [:]
        keys.reserveCapacity(firstSeen.count)
        for (user, timestamp) in firstSeen {
            let appUser = RollupCache.AppUser(app: app, user: user)
            if let known = cache.users[appUser], known.firstSeen <= timestamp {
                keys[user] = known.key
                continue
            }
            upsert.bind(user, at: 2)
            upsert.bind(timestamp, at: 3)
            let known = try upsert.executeReturningRow { RollupCache.User(key: $0.int64(at: 0), firstSeen: $0.int64(at: 1)) }
            keys[user] = known.key
            cache.users[appUser] = known
        }
        return keys
    }
}

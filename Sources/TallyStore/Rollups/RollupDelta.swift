import GRDB

/// The rollup changes caused by the events one transaction accepted (every batch of a group
/// commit, see ``GroupCommit``), aggregated in memory so the database sees one write per
/// rollup row touched instead of one per event.
///
/// Every rollup merge is commutative (sums, set unions, the later of two last events, the
/// earlier of two first events), so rollups do not depend on the order events arrive in.
struct RollupDelta {
    private struct Labeled: Hashable {
        var bucket: Int64
        var label: String
    }

    private struct UserBucket: Hashable {
        var bucket: Int64
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

    /// A user whose first event moved: a new user (`from` is `nil`), or one whose
    /// `first_seen` an earlier event lowered.
    private struct FirstSeenMove {
        var user: UInt32
        var from: Int64?
        var to: Int64
    }

    /// The changes to the two user sets of one row of `bucket_users` or `day_users`.
    private struct SetChanges {
        var active: [UInt32] = []
        var firstAdded: [UInt32] = []
        var firstRemoved: [UInt32] = []
    }

    private var firstSeen: [String: Int64] = [:]
    private var names: [Labeled: Int64] = [:]
    private var screens: [Labeled: Int64] = [:]
    private var activity: [UserBucket: Activity] = [:]

    /// Adds an accepted event that happened `timestamp` milliseconds after 1970.
    mutating func add(_ event: Event, timestamp: Int64) {
        let bucket = Bucket.containing(milliseconds: timestamp)
        let user = event.userID
        firstSeen[user] = min(firstSeen[user] ?? timestamp, timestamp)
        names[Labeled(bucket: bucket, label: event.name), default: 0] += 1
        if event.name == "screen_view", case .string(let screen)? = event.properties["screen"] {
            screens[Labeled(bucket: bucket, label: screen), default: 0] += 1
        }
        activity[UserBucket(bucket: bucket, user: user), default: Activity(lastTimestamp: timestamp, lastVersion: event.appVersion)]
            .add(name: event.name, timestamp: timestamp, version: event.appVersion)
    }

    /// Merges the delta into the rollup tables of `app`. Call inside the transaction that
    /// inserted the events.
    ///
    /// Skips the user lookups that `cache` shows would change nothing, and records in `cache`
    /// what this write stores: keep the cache only if the transaction commits.
    func write(_ db: Database, app: AppID, cache: inout RollupCache) throws {
        let (users, moves) = try resolveUsers(db, app: app, cache: &cache)
        let labels = try Self.resolveLabels(
            db, Set(names.keys.map(\.label)).union(screens.keys.map(\.label)).union(activity.values.map(\.lastVersion)),
            cache: &cache)
        try writeCounts(db, app: app, labels: labels)

        var bucketSets: [Int64: SetChanges] = [:], daySets: [Int64: SetChanges] = [:]
        var bucketActivity: [Int64: [(user: UInt32, activity: Activity)]] = [:]
        for (key, value) in activity {
            let user = users[key.user]!
            bucketActivity[key.bucket, default: []].append((user, value))
            bucketSets[key.bucket, default: SetChanges()].active.append(user)
            daySets[Bucket.day(of: key.bucket), default: SetChanges()].active.append(user)
        }
        for move in moves {
            bucketSets[move.to, default: SetChanges()].firstAdded.append(move.user)
            daySets[Bucket.day(of: move.to), default: SetChanges()].firstAdded.append(move.user)
            if let from = move.from {
                bucketSets[from, default: SetChanges()].firstRemoved.append(move.user)
                daySets[Bucket.day(of: from), default: SetChanges()].firstRemoved.append(move.user)
            }
        }
        try writeActivity(bucketActivity, db, app: app, labels: labels)
        try Self.write(bucketSets, to: "bucket_users", periodColumn: "bucket", db, app: app)
        try Self.write(daySets, to: "day_users", periodColumn: "day", db, app: app)
    }

    /// Adds the events per name and per screen to `name_bucket` and `screen_bucket`.
    private func writeCounts(_ db: Database, app: AppID, labels: [String: Int64]) throws {
        try Self.add(names, to: "name_bucket", keyColumn: "name_id", db, app: app) { $0.bind(labels[$1]!, at: 3) }
        try Self.add(screens, to: "screen_bucket", keyColumn: "screen_id", db, app: app) { $0.bind(labels[$1]!, at: 3) }
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

    /// Merges each bucket's per-user detail into its `bucket_activity` row: counts add up,
    /// and the later last event wins (on a tie, the greater version text).
    private func writeActivity(
        _ buckets: [Int64: [(user: UInt32, activity: Activity)]], _ db: Database, app: AppID, labels: [String: Int64]
    ) throws {
        let read = try RawStatement(db, sql: "SELECT names, versions FROM bucket_activity WHERE app_id = ?1 AND bucket = ?2")
        let write = try RawStatement(db, sql: "REPLACE INTO bucket_activity (app_id, bucket, names, versions) VALUES (?1, ?2, ?3, ?4)")
        read.bind(app.rawValue, at: 1)
        write.bind(app.rawValue, at: 1)
        var versionTexts = Dictionary(uniqueKeysWithValues: labels.map { ($0.value, $0.key) })
        func text(_ version: Int64) throws -> String {
            if let text = versionTexts[version] { return text }
            let text = try String.fetchOne(db, sql: "SELECT text FROM label WHERE id = ?", arguments: [version]) ?? ""
            versionTexts[version] = text
            return text
        }
        for (bucket, entries) in buckets {
            read.bind(bucket, at: 2)
            var stored = try read.executeReturningFirstRow { row in
                try row.withBlob(at: 0) { names in try row.withBlob(at: 1) { try BucketActivity(names: names, versions: $0) } }
            } ?? BucketActivity()
            let start = bucket * Bucket.milliseconds
            for (user, activity) in entries {
                for (name, count) in activity.counts { stored.names[labels[name]!, default: [:]][user, default: 0] += count }
                let last = BucketActivity.LastEvent(offset: activity.lastTimestamp - start, version: labels[activity.lastVersion]!)
                if let known = stored.last[user], try known.offset > last.offset
                    || known.offset == last.offset && (known.version == last.version || text(known.version) > activity.lastVersion) {
                    continue
                }
                stored.last[user] = last
            }
            write.bind(bucket, at: 2)
            write.bind(stored.encodedNames, at: 3)
            write.bind(stored.encodedVersions, at: 4)
            try write.execute()
        }
    }

    /// Applies `changes` to the `active` and `first` user sets of `table`'s rows, keyed by
    /// app and `periodColumn`, writing only the rows that change.
    private static func write(
        _ changes: [Int64: SetChanges], to table: String, periodColumn: String, _ db: Database, app: AppID
    ) throws {
        let read = try RawStatement(db, sql: "SELECT active, first FROM \(table) WHERE app_id = ?1 AND \(periodColumn) = ?2")
        let write = try RawStatement(db, sql: "REPLACE INTO \(table) (app_id, \(periodColumn), active, first) VALUES (?1, ?2, ?3, ?4)")
        read.bind(app.rawValue, at: 1)
        write.bind(app.rawValue, at: 1)
        for (period, change) in changes {
            read.bind(period, at: 2)
            let stored = try read.executeReturningFirstRow { row in
                try (row.withBlob(at: 0) { try UserSet(serialized: $0) }, row.withBlob(at: 1) { try UserSet(serialized: $0) })
            } ?? (UserSet(), UserSet())
            var (active, first) = stored
            for user in change.active { active.insert(user) }
            for user in change.firstRemoved { first.remove(user) }
            for user in change.firstAdded { first.insert(user) }
            guard (active, first) != stored else { continue }
            write.bind(period, at: 2)
            write.bind(active.serialized, at: 3)
            write.bind(first.serialized, at: 4)
            try write.execute()
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

    /// Every user's number, giving new users the app's next numbers, and the users whose first
    /// event moved: new users, and those whose `first_seen` this delta lowers.
    private func resolveUsers(
        _ db: Database, app: AppID, cache: inout RollupCache
    ) throws -> (numbers: [String: UInt32], moves: [FirstSeenMove]) {
        var numbers: [String: UInt32] = [:]
        numbers.reserveCapacity(firstSeen.count)
        var moves: [FirstSeenMove] = []
        var pending: [(user: String, timestamp: Int64)] = []
        for (user, timestamp) in firstSeen {
            if let known = cache.users[RollupCache.AppUser(app: app, user: user)], known.firstSeen <= timestamp {
                numbers[user] = known.number
            } else {
                pending.append((user, timestamp))
            }
        }
        guard !pending.isEmpty else { return (numbers, moves) }

        let find = try RawStatement(db, sql: "SELECT number, first_seen FROM app_user WHERE app_id = ?1 AND user_id = ?2")
        let insert = try RawStatement(db, sql: "INSERT INTO app_user (app_id, user_id, number, first_seen) VALUES (?1, ?2, ?3, ?4)")
        let lower = try RawStatement(db, sql: "UPDATE app_user SET first_seen = ?3 WHERE app_id = ?1 AND user_id = ?2")
        for statement in [find, insert, lower] { statement.bind(app.rawValue, at: 1) }
        var next: Int64?
        for (user, timestamp) in pending {
            find.bind(user, at: 2)
            var known = try find.executeReturningFirstRow { RollupCache.User(number: UInt32($0.int64(at: 0)), firstSeen: $0.int64(at: 1)) }
            if let stored = known, stored.firstSeen > timestamp {
                lower.bind(user, at: 2)
                lower.bind(timestamp, at: 3)
                try lower.execute()
                moves.append(FirstSeenMove(
                    user: stored.number, from: Bucket.containing(milliseconds: stored.firstSeen), to: Bucket.containing(milliseconds: timestamp)))
                known?.firstSeen = timestamp
            } else if known == nil {
                let number = try next ?? Int64.fetchOne(
                    db, sql: "SELECT coalesce(max(number) + 1, 0) FROM app_user WHERE app_id = ?", arguments: [app.rawValue]) ?? 0
                guard number <= Int64(UInt32.max) else { throw DatabaseError(message: "app \(app.rawValue) has 2^32 users") }
                next = number + 1
                insert.bind(user, at: 2)
                insert.bind(number, at: 3)
                insert.bind(timestamp, at: 4)
                try insert.execute()
                moves.append(FirstSeenMove(user: UInt32(number), from: nil, to: Bucket.containing(milliseconds: timestamp)))
                known = RollupCache.User(number: UInt32(number), firstSeen: timestamp)
            }
            numbers[user] = known!.number
            cache.users[RollupCache.AppUser(app: app, user: user)] = known
        }
        return (numbers, moves)
    }
}

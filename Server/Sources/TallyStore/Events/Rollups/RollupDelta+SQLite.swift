import GRDB

extension RollupDelta {
    /// Merges the delta into the rollup tables of `app` in SQLite. Call inside the transaction
    /// that inserted the events.
    ///
    /// Skips the user lookups that `cache` shows would change nothing, and records in `cache`
    /// what this write stores: keep the cache only if the transaction commits. Writes
    /// ``segments`` under the app's `segmentProperties`; without them (migration "user-sets", which
    /// rebuilds from raw events before the segments' tables exist; migration "segments" rebuilds
    /// those) leaves them out.
    ///
    /// With a `purchaseEvent`, also stores the purchases of the events of that name and counts
    /// in `health` those that carry none (see ``SegmentDelta``).
    func write(
        _ db: Database, app: AppID, cache: inout RollupCache, segmentProperties: SegmentProperties?, purchaseEvent: String? = nil,
        health: inout HealthCounts
    ) throws {
        let lookUp = usersToLookUp(app: app, cache: cache)
        let users = try userChanges(
            app: app, stored: lookUp.isEmpty ? [:] : Self.storedUsers(lookUp, db, app: app),
            nextNumber: lookUp.isEmpty ? 0 : Self.nextNumber(db, app: app), cache: &cache)
        try Self.write(users, db, app: app)
        let labels = try Self.resolveLabels(db, labelTexts, cache: &cache)
        let counts = countRows(labels: labels)
        try Self.add(counts.names, to: "name_bucket", keyColumn: "name_id", db, app: app)
        try Self.add(counts.screens, to: "screen_bucket", keyColumn: "screen_id", db, app: app)
        try Self.writeActivity(activity(numbers: users.numbers), db, app: app, labels: labels)
        let sets = setChanges(numbers: users.numbers, moves: users.moves)
        try Self.write(sets.buckets, to: "bucket_users", periodColumn: "bucket", db, app: app)
        try Self.write(sets.days, to: "day_users", periodColumn: "day", db, app: app)
        if let segmentProperties {
            try segments.write(
                db, app: app, users: users.numbers, cache: &cache, properties: segmentProperties, purchaseEvent: purchaseEvent, health: &health)
        }
    }

    /// The `app_user` rows of `users` that exist.
    private static func storedUsers(_ users: [String], _ db: Database, app: AppID) throws -> [String: RollupCache.User] {
        let find = try RawStatement(db, sql: "SELECT number, first_seen FROM app_user WHERE app_id = ?1 AND user_id = ?2")
        find.bind(app.rawValue, at: 1)
        var stored: [String: RollupCache.User] = [:]
        for user in users {
            find.bind(user, at: 2)
            stored[user] = try find.executeReturningFirstRow { RollupCache.User(number: UInt32($0.int64(at: 0)), firstSeen: $0.int64(at: 1)) }
        }
        return stored
    }

    /// One more than the app's highest user number, or 0, and never a deleted user's number
    /// (`user_number_floor`).
    private static func nextNumber(_ db: Database, app: AppID) throws -> Int64 {
        try Int64.fetchOne(
            db,
            sql: """
                SELECT max(coalesce((SELECT max(number) + 1 FROM app_user WHERE app_id = ?1), 0),
                    coalesce((SELECT next FROM user_number_floor WHERE app_id = ?1), 0))
                """, arguments: [app.rawValue]) ?? 0
    }

    /// Inserts the new users and lowers the moved ones' `first_seen` in `app_user`.
    private static func write(_ users: UserChanges, _ db: Database, app: AppID) throws {
        if !users.inserted.isEmpty {
            let insert = try RawStatement(db, sql: "INSERT INTO app_user (app_id, user_id, number, first_seen) VALUES (?1, ?2, ?3, ?4)")
            insert.bind(app.rawValue, at: 1)
            for (user, number, firstSeen) in users.inserted {
                insert.bind(user, at: 2)
                insert.bind(Int64(number), at: 3)
                insert.bind(firstSeen, at: 4)
                try insert.execute()
            }
        }
        if !users.lowered.isEmpty {
            let lower = try RawStatement(db, sql: "UPDATE app_user SET first_seen = ?3 WHERE app_id = ?1 AND user_id = ?2")
            lower.bind(app.rawValue, at: 1)
            for (user, firstSeen) in users.lowered {
                lower.bind(user, at: 2)
                lower.bind(firstSeen, at: 3)
                try lower.execute()
            }
        }
    }

    /// Adds `rows` to the `count` column of `table`, keyed by app, bucket and `keyColumn`.
    private static func add(
        _ rows: [(bucket: Int64, label: Int64, count: Int64)], to table: String, keyColumn: String, _ db: Database, app: AppID
    ) throws {
        guard !rows.isEmpty else { return }
        let upsert = try RawStatement(
            db,
            sql: """
                INSERT INTO \(table) (app_id, bucket, \(keyColumn), count) VALUES (?1, ?2, ?3, ?4)
                ON CONFLICT (app_id, bucket, \(keyColumn)) DO UPDATE SET count = count + excluded.count
                """)
        upsert.bind(app.rawValue, at: 1)
        for (bucket, label, count) in rows {
            upsert.bind(bucket, at: 2)
            upsert.bind(label, at: 3)
            upsert.bind(count, at: 4)
            try upsert.execute()
        }
    }

    /// Merges each bucket's per-user detail into its `bucket_activity` row.
    private static func writeActivity(
        _ buckets: [Int64: [(user: UInt32, activity: Activity)]], _ db: Database, app: AppID, labels: [String: Int64]
    ) throws {
        let read = try RawStatement(db, sql: "SELECT names, versions FROM bucket_activity WHERE app_id = ?1 AND bucket = ?2")
        let write = try RawStatement(db, sql: "REPLACE INTO bucket_activity (app_id, bucket, names, versions) VALUES (?1, ?2, ?3, ?4)")
        read.bind(app.rawValue, at: 1)
        write.bind(app.rawValue, at: 1)
        for (bucket, entries) in buckets {
            read.bind(bucket, at: 2)
            var stored =
                try read.executeReturningFirstRow { row in
                    try row.withBlob(at: 0) { names in try row.withBlob(at: 1) { try BucketActivity(names: names, versions: $0) } }
                } ?? BucketActivity()
            var versionTexts: [Int64: String] = [:]
            for id in tiedVersions(entries, in: stored, bucket: bucket, labels: labels) {
                versionTexts[id] = try String.fetchOne(db, sql: "SELECT text FROM label WHERE id = ?", arguments: [id])
            }
            merge(entries, into: &stored, bucket: bucket, labels: labels, versionTexts: versionTexts)
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
            }
            guard let (active, first) = change.applied(to: stored) else { continue }
            write.bind(period, at: 2)
            write.bind(active.serialized, at: 3)
            write.bind(first.serialized, at: 4)
            try write.execute()
        }
    }

    /// The `label` id of each text, inserting the texts not yet interned.
    static func resolveLabels(_ db: Database, _ texts: Set<String>, cache: inout RollupCache) throws -> [String: Int64] {
        var ids: [String: Int64] = [:]
        var missing: [String] = []
        for text in texts {
            if let id = cache.labels[text] { ids[text] = id } else { missing.append(text) }
        }
        guard !missing.isEmpty else { return ids }
        let intern = try RawStatement(
            db,
            sql: """
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
}

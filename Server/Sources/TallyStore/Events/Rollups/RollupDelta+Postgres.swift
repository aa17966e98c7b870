import Logging
import NIOCore
import PostgresNIO

extension RollupDelta {
    /// Merges the delta into the rollup tables of `app` in PostgreSQL, as
    /// ``write(_:app:cache:)`` does in SQLite, with each table's rows read and written in one
    /// statement, then its ``segments`` as `segmentPlan` reads them (``SegmentDelta/plan(_:)``
    /// under the app's segment properties). Call inside the transaction that inserted the
    /// events, holding the app's advisory lock (see ``PostgresGroupWriter``).
    ///
    /// - Parameter labels: The `label` id of every text of ``labelTexts`` and of
    ///   `segmentPlan`, which the caller interns in one statement with the other apps' of its
    ///   transaction (see ``PostgresRollupWrites/resolveLabels(_:cache:connection:logger:)``).
    func write(
        _ connection: PostgresConnection, app: AppID, labels: [String: Int64], segmentPlan: SegmentDelta.Plan,
        cache: inout RollupCache, logger: Logger
    ) async throws {
        let database = PostgresRollupWrites(connection: connection, logger: logger, app: app.rawValue)
        let lookUp = usersToLookUp(app: app, cache: cache)
        var stored: [String: RollupCache.User] = [:]
        var nextNumber: Int64 = 0
        if !lookUp.isEmpty {
            for (user, number, firstSeen) in try await database.rows(
                "SELECT user_id, number, first_seen FROM app_user WHERE app_id = \(app.rawValue) AND user_id = ANY(\(lookUp))",
                as: (String, Int64, Int64).self
            ) {
                stored[user] = RollupCache.User(number: UInt32(truncatingIfNeeded: number), firstSeen: firstSeen)
            }
            nextNumber = try await database.rows(
                """
                SELECT greatest(coalesce((SELECT max(number) + 1 FROM app_user WHERE app_id = \(app.rawValue)), 0),
                    coalesce((SELECT next FROM user_number_floor WHERE app_id = \(app.rawValue)), 0))
                """, as: Int64.self)[0]
        }
        let users = try userChanges(app: app, stored: stored, nextNumber: nextNumber, cache: &cache)
        try await database.write(users)
        let counts = countRows(labels: labels)
        try await database.add(counts.names, to: "name_bucket", keyColumn: "name_id")
        try await database.add(counts.screens, to: "screen_bucket", keyColumn: "screen_id")
        try await database.writeActivity(activity(numbers: users.numbers), labels: labels)
        let sets = setChanges(numbers: users.numbers, moves: users.moves)
        try await database.write(sets.buckets, to: "bucket_users", periodColumn: "bucket")
        try await database.write(sets.days, to: "day_users", periodColumn: "day")
        try await segments.write(connection, app: app, plan: segmentPlan, users: users.numbers, labels: labels, cache: &cache, logger: logger)
    }
}

/// The statements of ``RollupDelta/write(_:app:labels:segmentProperties:cache:logger:)`` and
/// of ``SegmentDelta``'s writes for one app.
struct PostgresRollupWrites {
    let connection: PostgresConnection
    let logger: Logger
    let app: Int64

    func rows<each Column: PostgresDecodable & Sendable>(_ query: PostgresQuery, as types: (repeat each Column).Type) async throws -> [(
        repeat each Column
    )] {
        try await connection.query(query, logger: logger).collect(as: types)
    }

    func write(_ users: RollupDelta.UserChanges) async throws {
        if !users.inserted.isEmpty {
            try await connection.query(
                """
                INSERT INTO app_user (app_id, user_id, number, first_seen)
                SELECT \(app), * FROM unnest(\(users.inserted.map(\.user)), \(users.inserted.map { Int64($0.number) }), \(users.inserted.map(\.firstSeen)))
                """, logger: logger)
        }
        if !users.lowered.isEmpty {
            try await connection.query(
                """
                UPDATE app_user SET first_seen = lowered.first_seen
                FROM unnest(\(users.lowered.map(\.user)), \(users.lowered.map(\.firstSeen))) AS lowered (user_id, first_seen)
                WHERE app_user.app_id = \(app) AND app_user.user_id = lowered.user_id
                """, logger: logger)
        }
    }

    /// The `label` id of each text, interning those not yet interned in text order, in one
    /// statement: two transactions that intern the same texts then wait for each other in one
    /// order only (see ``PostgresGroupWriter``).
    static func resolveLabels(
        _ texts: Set<String>, cache: inout RollupCache, connection: PostgresConnection, logger: Logger
    ) async throws -> [String: Int64] {
        var ids: [String: Int64] = [:]
        var missing: [String] = []
        for text in texts {
            if let id = cache.labels[text] { ids[text] = id } else { missing.append(text) }
        }
        guard !missing.isEmpty else { return ids }
        missing.sort()
        try await connection.query(
            """
            INSERT INTO label (text) SELECT text FROM unnest(\(missing)) WITH ORDINALITY AS missing (text, position)
            ORDER BY position ON CONFLICT (text) DO NOTHING
            """, logger: logger)
        for try await (id, text) in try await connection.query("SELECT id, text FROM label WHERE text = ANY(\(missing))", logger: logger)
            .decode((Int64, String).self)
        {
            ids[text] = id
            cache.labels[text] = id
        }
        return ids
    }

    /// Adds `rows` to the `count` column of `table`, keyed by app, bucket and `keyColumn`.
    func add(_ rows: [(bucket: Int64, label: Int64, count: Int64)], to table: String, keyColumn: String) async throws {
        guard !rows.isEmpty else { return }
        try await connection.query(
            PostgresQuery(
                unsafeSQL: """
                    INSERT INTO \(table) (app_id, bucket, \(keyColumn), count) SELECT $1, * FROM unnest($2::bigint[], $3::bigint[], $4::bigint[])
                    ON CONFLICT (app_id, bucket, \(keyColumn)) DO UPDATE SET count = \(table).count + excluded.count
                    """, binds: try PostgresBindings(binding: app, rows.map(\.bucket), rows.map(\.label), rows.map(\.count))), logger: logger)
    }

    /// Merges each bucket's per-user detail into its `bucket_activity` row.
    func writeActivity(_ buckets: [Int64: [(user: UInt32, activity: RollupDelta.Activity)]], labels: [String: Int64]) async throws {
        guard !buckets.isEmpty else { return }
        var stored: [Int64: BucketActivity] = [:]
        for (bucket, names, versions) in try await rows(
            "SELECT bucket, names, versions FROM bucket_activity WHERE app_id = \(app) AND bucket = ANY(\(Array(buckets.keys)))",
            as: (Int64, ByteBuffer, ByteBuffer).self
        ) {
            stored[bucket] = try names.withUnsafeReadableBytes { names in
                try versions.withUnsafeReadableBytes { try BucketActivity(names: names, versions: $0) }
            }
        }
        var tied: Set<Int64> = []
        for (bucket, entries) in buckets {
            tied.formUnion(RollupDelta.tiedVersions(entries, in: stored[bucket] ?? BucketActivity(), bucket: bucket, labels: labels))
        }
        var versionTexts: [Int64: String] = [:]
        if !tied.isEmpty {
            for (id, text) in try await rows("SELECT id, text FROM label WHERE id = ANY(\(Array(tied)))", as: (Int64, String).self) {
                versionTexts[id] = text
            }
        }
        var rows: [(bucket: Int64, names: ByteBuffer, versions: ByteBuffer)] = []
        for (bucket, entries) in buckets {
            var activity = stored[bucket] ?? BucketActivity()
            RollupDelta.merge(entries, into: &activity, bucket: bucket, labels: labels, versionTexts: versionTexts)
            rows.append((bucket, ByteBuffer(bytes: activity.encodedNames), ByteBuffer(bytes: activity.encodedVersions)))
        }
        try await connection.query(
            """
            INSERT INTO bucket_activity (app_id, bucket, names, versions)
            SELECT \(app), * FROM unnest(\(rows.map(\.bucket)), \(rows.map(\.names)), \(rows.map(\.versions)))
            ON CONFLICT (app_id, bucket) DO UPDATE SET names = excluded.names, versions = excluded.versions
            """, logger: logger)
    }

    /// Applies `changes` to the `active` and `first` user sets of `table`'s rows, keyed by
    /// app and `periodColumn`, writing only the rows that change.
    func write(_ changes: [Int64: RollupDelta.SetChanges], to table: String, periodColumn: String) async throws {
        guard !changes.isEmpty else { return }
        var stored: [Int64: (active: UserSet, first: UserSet)] = [:]
        let read = PostgresQuery(
            unsafeSQL: "SELECT \(periodColumn), active, first FROM \(table) WHERE app_id = $1 AND \(periodColumn) = ANY($2::bigint[])",
            binds: try PostgresBindings(binding: app, Array(changes.keys)))
        for (period, active, first) in try await rows(read, as: (Int64, ByteBuffer, ByteBuffer).self) {
            stored[period] = (
                try active.withUnsafeReadableBytes { try UserSet(serialized: $0) }, try first.withUnsafeReadableBytes { try UserSet(serialized: $0) }
            )
        }
        var rows: [(period: Int64, active: ByteBuffer, first: ByteBuffer)] = []
        for (period, change) in changes {
            guard let (active, first) = change.applied(to: stored[period]) else { continue }
            rows.append((period, ByteBuffer(bytes: active.serialized), ByteBuffer(bytes: first.serialized)))
        }
        guard !rows.isEmpty else { return }
        try await connection.query(
            PostgresQuery(
                unsafeSQL: """
                    INSERT INTO \(table) (app_id, \(periodColumn), active, first) SELECT $1, * FROM unnest($2::bigint[], $3::bytea[], $4::bytea[])
                    ON CONFLICT (app_id, \(periodColumn)) DO UPDATE SET active = excluded.active, first = excluded.first
                    """, binds: try PostgresBindings(binding: app, rows.map(\.period), rows.map(\.active), rows.map(\.first))), logger: logger)
    }
}

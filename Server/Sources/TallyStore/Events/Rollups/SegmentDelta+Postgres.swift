import Foundation
import Logging
import NIOCore
import PostgresNIO
import TallyEvent

extension SegmentDelta {
    /// Merges the delta into what segments and funnels read for `app` in PostgreSQL (see
    /// ``SegmentDelta``), as ``write(_:app:users:cache:)`` does in SQLite, with each table's
    /// rows read and written in one statement. Call inside the transaction that inserted the
    /// events, after ``RollupDelta``'s user numbers are written, holding the app's advisory
    /// lock (see ``PostgresGroupWriter``): the app's segment keys are numbered, and its rows
    /// read, merged and written back, by one transaction at a time.
    ///
    /// - Parameters:
    ///   - plan: The delta's ``plan(_:)`` under the app's segment properties, read while
    ///     holding its lock.
    ///   - users: The number of every user of the delta.
    ///   - labels: The `label` id of every text of the plan.
    func write(
        _ connection: PostgresConnection, app: AppID, plan: Plan, users: [String: UInt32], labels: [String: Int64],
        cache: inout RollupCache, logger: Logger
    ) async throws {
        guard !isEmpty else { return }
        let database = PostgresRollupWrites(connection: connection, logger: logger, app: app.rawValue)
        let ids = try plan.ids(labels)
        let keys = plan.keyLabels(ids)
        let numbers = try await database.resolveKeys(Set(keys), cache: &cache)
        let changes = try changes(plan, ids: ids, keyNumbers: try Plan.numbers(of: keys, in: numbers), users: users)
        try await database.writeLog(changes.log)
        try await database.writeDayKeys(changes.dayKeys)
        try await database.writeTraits(changes.traits)
        try await database.writePurchases(changes.purchases)
    }

    /// Rebuilds what segments and funnels read for `app` from its raw events, under
    /// `properties`, as ``rebuild(_:app:properties:)`` does in SQLite: after migration "segments", and
    /// when the app's segment properties change. Call inside a transaction that holds the
    /// app's advisory lock, or that ingest cannot run beside (a migration).
    static func rebuild(_ connection: PostgresConnection, app: AppID, properties: SegmentProperties, logger: Logger) async throws {
        let database = PostgresRollupWrites(connection: connection, logger: logger, app: app.rawValue)
        for table in ["bucket_log", "bucket_log_tail", "day_key_users", "user_trait", "trait_users"] {
            try await connection.query(
                PostgresQuery(unsafeSQL: "DELETE FROM \(table) WHERE app_id = $1", binds: try PostgresBindings(binding: app.rawValue)),
                logger: logger)
        }
        var cache = RollupCache()
        var numbers: [String: UInt32] = [:]
        var position = (timestamp: Int64.min, sequence: Int64.min)
        while true {
            let rows = try await database.rows(
                """
                SELECT timestamp, sequence, name, user_id, app_version, platform, properties::text, session_id FROM event
                WHERE app_id = \(app.rawValue) AND (timestamp, sequence) > (\(position.timestamp), \(position.sequence))
                ORDER BY timestamp, sequence LIMIT 50000
                """, as: (Int64, Int64, String, String, String, String, String, String?).self)
            guard let last = rows.last else { return }
            position = (last.0, last.1)
            var delta = SegmentDelta()
            for (timestamp, _, name, user, version, platform, json, session) in rows {
                delta.add(
                    Event(
                        id: UUID(), name: name, timestamp: Date(unixMilliseconds: timestamp), userID: user, sessionID: session,
                        appVersion: version, platform: platform, properties: try Event.storedProperties(Array(json.utf8))),
                    timestamp: timestamp)
            }
            let unknown = Array(Set(rows.map { $0.3 }).filter { numbers[$0] == nil })
            if !unknown.isEmpty {
                for (user, number) in try await database.rows(
                    "SELECT user_id, number FROM app_user WHERE app_id = \(app.rawValue) AND user_id = ANY(\(unknown))", as: (String, Int64).self)
                {
                    numbers[user] = UInt32(truncatingIfNeeded: number)
                }
                guard unknown.allSatisfy({ numbers[$0] != nil }) else { throw DamagedRollup(table: "app_user") }
            }
            let plan = delta.plan(properties)
            let labels = try await PostgresRollupWrites.resolveLabels(Set(plan.texts), cache: &cache, connection: connection, logger: logger)
            try await delta.write(connection, app: app, plan: plan, users: numbers, labels: labels, cache: &cache, logger: logger)
            if numbers.count > RollupCache.maximumEntries { numbers = [:] }
            cache.trim()
        }
    }
}

extension PostgresRollupWrites {
    /// The number of each segment key in `app`, adding the keys it does not have yet, numbered
    /// densely from one more than its highest: the app's advisory lock keeps two
    /// transactions from taking the same numbers. Records in `cache` the numbers found and
    /// added.
    func resolveKeys(_ keys: Set<[Int64]>, cache: inout RollupCache) async throws -> [[Int64]: Int64] {
        let id = AppID(rawValue: app)
        var numbers: [[Int64]: Int64] = [:]
        var missing: [[Int64]] = []
        for key in keys {
            if let number = cache.keys[RollupCache.AppKey(app: id, labels: key)] { numbers[key] = number } else { missing.append(key) }
        }
        guard !missing.isEmpty else { return numbers }
        let blobs = missing.map { ByteBuffer(bytes: SegmentKey.encoded($0)) }
        for (number, labels) in try await rows(
            "SELECT id, labels FROM segment_key WHERE app_id = \(app) AND labels = ANY(\(blobs))", as: (Int64, ByteBuffer).self)
        {
            let key = try labels.withUnsafeReadableBytes { try SegmentKey.decoded($0) }
            numbers[key] = number
            cache.keys[RollupCache.AppKey(app: id, labels: key)] = number
        }
        let new = missing.filter { numbers[$0] == nil }.sorted { $0.lexicographicallyPrecedes($1) }
        guard !new.isEmpty else { return numbers }
        let next = try await rows("SELECT coalesce(max(id) + 1, 0) FROM segment_key WHERE app_id = \(app)", as: Int64.self)[0]
        let added = new.indices.map { next + Int64($0) }
        try await connection.query(
            """
            INSERT INTO segment_key (app_id, id, labels)
            SELECT \(app), * FROM unnest(\(added), \(new.map { ByteBuffer(bytes: SegmentKey.encoded($0)) }))
            """, logger: logger)
        for (key, number) in zip(new, added) {
            numbers[key] = number
            cache.keys[RollupCache.AppKey(app: id, labels: key)] = number
        }
        return numbers
    }

    /// Writes each bucket's new events as a tail of its `bucket_log` row, or folds them, the
    /// row and its tails into the row (see ``BucketLogTails``): the sizes read in one
    /// statement, the rows to fold in another, and all written in a third.
    func writeLog(_ buckets: [Int64: [BucketLog.Entry]]) async throws {
        guard !buckets.isEmpty else { return }
        // The buckets that have a log, with its size and their tails'.
        var sizes: [Int64: (log: Int, tails: (count: Int, bytes: Int))] = [:]
        for (bucket, log, count, bytes) in try await rows(
            """
            SELECT l.bucket, octet_length(l.events), t.count, t.bytes FROM bucket_log l
            CROSS JOIN LATERAL (
                SELECT count(*), coalesce(sum(octet_length(events)), 0) FROM bucket_log_tail WHERE app_id = l.app_id AND bucket = l.bucket
            ) AS t (count, bytes)
            WHERE l.app_id = \(app) AND l.bucket = ANY(\(Array(buckets.keys)))
            """, as: (Int64, Int32, Int64, Int64).self)
        {
            sizes[bucket] = (Int(log), (Int(count), Int(bytes)))
        }
        var appended: [(bucket: Int64, events: ByteBuffer)] = []
        var folded: [Int64: BucketLog] = [:]
        for (bucket, entries) in buckets {
            let log = BucketLog(entries)
            if let size = sizes[bucket] {
                let new = log.encoded
                if BucketLogTails.appends(new.count, log: size.log, tails: size.tails) {
                    appended.append((bucket, ByteBuffer(bytes: new)))
                    continue
                }
            }
            folded[bucket] = log
        }
        try await fold(folded, appending: appended)
    }

    /// Folds buckets into their `bucket_log` rows (see ``BucketLogTails``): for each bucket of
    /// `folded`, its stored log, its tails and its new events in `folded` into its log, written
    /// with a new revision, without the events of the users its removal tails name; its tails
    /// deleted, and its log too if no event is left. Then inserts the tails `appended`.
    ///
    /// - Throws: ``DamagedRollup`` if a stored log or tail does not decode.
    func fold(_ folded: [Int64: BucketLog], appending appended: [(bucket: Int64, events: ByteBuffer)] = []) async throws {
        var folded = folded
        let foldedBuckets = Array(folded.keys)
        var removed: [Int64: Set<UInt32>] = [:]
        if !folded.isEmpty {
            for (bucket, events, user) in try await rows(
                """
                SELECT bucket, events, NULL::bigint FROM bucket_log WHERE app_id = \(app) AND bucket = ANY(\(foldedBuckets))
                UNION ALL SELECT bucket, events, removed_user FROM bucket_log_tail WHERE app_id = \(app) AND bucket = ANY(\(foldedBuckets))
                """, as: (Int64, ByteBuffer, Int64?).self)
            {
                if let user {
                    removed[bucket, default: []].insert(UInt32(truncatingIfNeeded: user))
                } else {
                    folded[bucket]?.merge(try events.withUnsafeReadableBytes { try BucketLog(encoded: $0) }.entries)
                }
            }
        }
        for (bucket, users) in removed { folded[bucket]?.removeAll(users: users) }
        let logs = folded.filter { !$0.value.entries.isEmpty }.map { (bucket: $0.key, events: ByteBuffer(bytes: $0.value.encoded)) }
        let emptied = folded.filter(\.value.entries.isEmpty).map(\.key)
        try await connection.query(
            """
            WITH cleared AS (DELETE FROM bucket_log_tail WHERE app_id = \(app) AND bucket = ANY(\(foldedBuckets))),
            emptied AS (DELETE FROM bucket_log WHERE app_id = \(app) AND bucket = ANY(\(emptied))),
            logged AS (
                INSERT INTO bucket_log (app_id, bucket, revision, events)
                SELECT \(app), bucket, nextval('bucket_log_revision'), events FROM unnest(\(logs.map(\.bucket)), \(logs.map(\.events))) AS r (bucket, events)
                ON CONFLICT (app_id, bucket) DO UPDATE SET revision = excluded.revision, events = excluded.events
            )
            INSERT INTO bucket_log_tail (app_id, bucket, revision, events)
            SELECT \(app), bucket, nextval('bucket_log_revision'), events
            FROM unnest(\(appended.map(\.bucket)), \(appended.map(\.events))) AS r (bucket, events)
            """, logger: logger)
    }

    /// Adds each day and key's new users to its `day_key_users` set, writing only the sets
    /// that change.
    func writeDayKeys(_ changes: [SegmentDelta.DayKey: [UInt32]]) async throws {
        guard !changes.isEmpty else { return }
        let keys = Array(changes.keys)
        var stored: [SegmentDelta.DayKey: UserSet] = [:]
        for (day, key, users) in try await rows(
            """
            SELECT t.day, t.key, t.users FROM day_key_users t
            JOIN unnest(\(keys.map(\.day)), \(keys.map(\.key))) AS r (day, key) ON t.day = r.day AND t.key = r.key
            WHERE t.app_id = \(app)
            """, as: (Int64, Int64, ByteBuffer).self)
        {
            stored[SegmentDelta.DayKey(day: day, key: key)] = try users.withUnsafeReadableBytes { try UserSet(serialized: $0) }
        }
        var rows: [(row: SegmentDelta.DayKey, users: ByteBuffer)] = []
        for (row, users) in changes {
            var set = stored[row] ?? UserSet()
            let count = set.count
            for user in users { set.insert(user) }
            guard set.count != count else { continue }
            rows.append((row, ByteBuffer(bytes: set.serialized)))
        }
        guard !rows.isEmpty else { return }
        try await connection.query(
            """
            INSERT INTO day_key_users (app_id, day, key, users)
            SELECT \(app), * FROM unnest(\(rows.map(\.row.day)), \(rows.map(\.row.key)), \(rows.map(\.users)))
            ON CONFLICT (app_id, day, key) DO UPDATE SET users = excluded.users
            """, logger: logger)
    }

    /// Stores each user property value that beats the stored one (``SegmentDelta/Trait/beats(_:storedText:)``),
    /// moving its user between the values' `trait_users` sets.
    /// Inserts `purchases` into `purchase`, in one statement.
    func writePurchases(_ purchases: [PurchaseRow]) async throws {
        guard !purchases.isEmpty else { return }
        try await connection.query(
            """
            INSERT INTO purchase (app_id, timestamp, user_number, segment_key, currency, amount)
            SELECT \(app), * FROM unnest(
                \(purchases.map(\.timestamp)), \(purchases.map { Int64($0.user) }), \(purchases.map(\.key)),
                \(purchases.map(\.currency)), \(purchases.map(\.micros)))
            """, logger: logger)
    }

    func writeTraits(_ traits: [SegmentDelta.TraitKey: SegmentDelta.Trait]) async throws {
        guard !traits.isEmpty else { return }
        let keys = Array(traits.keys)
        var stored: [SegmentDelta.TraitKey: (value: Int64, rank: Int64)] = [:]
        for (property, user, value, rank) in try await rows(
            """
            SELECT t.property_id, t.user_number, t.value_id, t.rank FROM user_trait t
            JOIN unnest(\(keys.map(\.property)), \(keys.map { Int64($0.user) })) AS r (property_id, user_number)
                ON t.property_id = r.property_id AND t.user_number = r.user_number
            WHERE t.app_id = \(app)
            """, as: (Int64, Int64, Int64, Int64).self)
        {
            stored[SegmentDelta.TraitKey(property: property, user: UInt32(truncatingIfNeeded: user))] = (value, rank)
        }
        // The texts of the stored values a new one ties with in rank.
        let tied = Set(
            traits.compactMap { key, trait in
                stored[key].flatMap { $0.rank == trait.rank && $0.value != trait.value ? $0.value : nil }
            })
        var texts: [Int64: String] = [:]
        if !tied.isEmpty {
            for (id, text) in try await rows("SELECT id, text FROM label WHERE id = ANY(\(Array(tied)))", as: (Int64, String).self) {
                texts[id] = text
            }
        }
        var moves = TraitMoves()
        var written: [(key: SegmentDelta.TraitKey, trait: SegmentDelta.Trait)] = []
        for (key, trait) in traits {
            if let known = stored[key] {
                guard trait.beats(known, storedText: { texts[known.value] ?? "" }) else { continue }
                if known.value != trait.value { moves.remove(key.user, from: TraitMoves.Row(property: key.property, value: known.value)) }
            }
            moves.add(key.user, to: TraitMoves.Row(property: key.property, value: trait.value))
            written.append((key, trait))
        }
        guard !written.isEmpty else { return }
        try await connection.query(
            """
            INSERT INTO user_trait (app_id, property_id, user_number, value_id, rank)
            SELECT \(app), * FROM unnest(
                \(written.map(\.key.property)), \(written.map { Int64($0.key.user) }), \(written.map(\.trait.value)), \(written.map(\.trait.rank)))
            ON CONFLICT (app_id, property_id, user_number) DO UPDATE SET value_id = excluded.value_id, rank = excluded.rank
            """, logger: logger)
        let changed = Array(moves.rows.keys)
        var sets: [TraitMoves.Row: UserSet] = [:]
        for (property, value, users) in try await rows(
            """
            SELECT t.property_id, t.value_id, t.users FROM trait_users t
            JOIN unnest(\(changed.map(\.property)), \(changed.map(\.value))) AS r (property_id, value_id)
                ON t.property_id = r.property_id AND t.value_id = r.value_id
            WHERE t.app_id = \(app)
            """, as: (Int64, Int64, ByteBuffer).self)
        {
            sets[TraitMoves.Row(property: property, value: value)] = try users.withUnsafeReadableBytes { try UserSet(serialized: $0) }
        }
        var rows: [(row: TraitMoves.Row, users: ByteBuffer)] = []
        for (row, change) in moves.rows {
            var set = sets[row] ?? UserSet()
            change.apply(to: &set)
            rows.append((row, ByteBuffer(bytes: set.serialized)))
        }
        try await connection.query(
            """
            INSERT INTO trait_users (app_id, property_id, value_id, users)
            SELECT \(app), * FROM unnest(\(rows.map(\.row.property)), \(rows.map(\.row.value)), \(rows.map(\.users)))
            ON CONFLICT (app_id, property_id, value_id) DO UPDATE SET users = excluded.users
            """, logger: logger)
    }
}

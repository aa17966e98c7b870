import Foundation
import GRDB
import TallyEvent

extension SegmentDelta {
    /// Merges the delta into what segments and funnels read for `app` (see ``SegmentDelta``),
    /// under its segment properties `properties`, given the numbers of its users. Call inside
    /// the transaction that inserted the events, after ``RollupDelta``'s user numbers are
    /// written.
    ///
    /// With a `purchaseEvent`, also stores the purchases of the events of that name (see
    /// ``PurchaseRow``) and counts in `health` those that carry none, by reason.
    func write(
        _ db: Database, app: AppID, users: [String: UInt32], cache: inout RollupCache, properties: SegmentProperties,
        purchaseEvent: String? = nil, health: inout HealthCounts
    ) throws {
        guard !isEmpty else { return }
        let plan = plan(properties, purchaseEvent: purchaseEvent)
        let labels = try RollupDelta.resolveLabels(db, Set(plan.texts), cache: &cache)
        let ids = try plan.ids(labels)
        let keys = plan.keyLabels(ids)
        let numbers = try Self.resolveKeys(Set(keys), db, app: app, cache: &cache)
        let changes = try changes(plan, ids: ids, keyNumbers: try Plan.numbers(of: keys, in: numbers), users: users)
        try Self.writeLog(changes.log, db, app: app)
        try Self.writeDayKeys(changes.dayKeys, db, app: app)
        try Self.writeTraits(changes.traits, db, app: app)
        try Self.writePurchases(changes.purchases, db, app: app)
        health.add(purchaseProblems: plan.purchaseProblems, app: app)
    }

    /// Inserts `purchases` into `purchase`.
    private static func writePurchases(_ purchases: [PurchaseRow], _ db: Database, app: AppID) throws {
        guard !purchases.isEmpty else { return }
        let insert = try RawStatement(
            db,
            sql: "INSERT INTO purchase (app_id, timestamp, user_number, segment_key, currency, amount) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
        insert.bind(app.rawValue, at: 1)
        for purchase in purchases {
            insert.bind(purchase.timestamp, at: 2)
            insert.bind(Int64(purchase.user), at: 3)
            insert.bind(purchase.key, at: 4)
            insert.bind(purchase.currency, at: 5)
            insert.bind(purchase.micros, at: 6)
            try insert.execute()
        }
    }

    /// Rebuilds what segments and funnels read for `app` from its raw events, under
    /// `properties`: after migration "segments", and when the app's segment properties change.
    /// Call inside a write transaction.
    static func rebuild(_ db: Database, app: AppID, properties: SegmentProperties) throws {
        for table in ["bucket_log", "bucket_log_tail", "day_key_users", "user_trait", "trait_users"] {
            try db.execute(sql: "DELETE FROM \(table) WHERE app_id = ?", arguments: [app.rawValue])
        }
        var cache = RollupCache()
        var numbers: [String: UInt32] = [:]
        let findUser = try RawStatement(db, sql: "SELECT number FROM app_user WHERE app_id = ?1 AND user_id = ?2")
        findUser.bind(app.rawValue, at: 1)
        var position = (timestamp: Int64.min, row: Int64.min)
        while true {
            let rows = try RawStatement(
                db,
                sql: """
                    SELECT timestamp, rowid, name, user_id, app_version, platform, properties, session_id FROM event
                    WHERE app_id = ?1 AND (timestamp, rowid) > (?2, ?3) ORDER BY timestamp, rowid LIMIT 50000
                    """)
            rows.bind(app.rawValue, at: 1)
            rows.bind(position.timestamp, at: 2)
            rows.bind(position.row, at: 3)
            var delta = SegmentDelta()
            func text(_ column: Int32) -> String { rows.withText(at: column) { String(decoding: $0, as: UTF8.self) } }
            while try rows.step() {
                position = (rows.int64(at: 0), rows.int64(at: 1))
                delta.add(
                    Event(
                        id: UUID(), name: text(2), timestamp: Date(unixMilliseconds: position.timestamp), userID: text(3),
                        sessionID: rows.isNull(at: 7) ? nil : text(7), appVersion: text(4), platform: text(5),
                        properties: try rows.withText(at: 6) { try Event.storedProperties(Array($0)) }),
                    timestamp: position.timestamp)
            }
            guard !delta.isEmpty else { return }
            for (event, _) in delta.events where numbers[event.userID] == nil {
                findUser.bind(event.userID, at: 2)
                guard let number = try findUser.executeReturningFirstRow({ UInt32($0.int64(at: 0)) }) else {
                    throw DamagedRollup(table: "app_user")
                }
                numbers[event.userID] = number
            }
            var unused = HealthCounts()
            try delta.write(db, app: app, users: numbers, cache: &cache, properties: properties, health: &unused)
            if numbers.count > RollupCache.maximumEntries { numbers = [:] }
            cache.trim()
        }
    }

    /// The number of each key in `app`, adding the keys it does not have yet.
    private static func resolveKeys(_ keys: Set<[Int64]>, _ db: Database, app: AppID, cache: inout RollupCache) throws -> [[Int64]: Int64] {
        var numbers: [[Int64]: Int64] = [:]
        var find: RawStatement?
        var insert: RawStatement?
        for key in keys {
            let cached = RollupCache.AppKey(app: app, labels: key)
            if let number = cache.keys[cached] {
                numbers[key] = number
                continue
            }
            let labels = SegmentKey.encoded(key)
            if find == nil {
                find = try RawStatement(db, sql: "SELECT id FROM segment_key WHERE app_id = ?1 AND labels = ?2")
                find!.bind(app.rawValue, at: 1)
            }
            find!.bind(labels, at: 2)
            var number = try find!.executeReturningFirstRow { $0.int64(at: 0) }
            if number == nil {
                if insert == nil {
                    insert = try RawStatement(
                        db,
                        sql: """
                            INSERT INTO segment_key (app_id, id, labels)
                            SELECT ?1, coalesce(max(id) + 1, 0), ?2 FROM segment_key WHERE app_id = ?1 RETURNING id
                            """)
                    insert!.bind(app.rawValue, at: 1)
                }
                insert!.bind(labels, at: 2)
                number = try insert!.executeReturningRow { $0.int64(at: 0) }
            }
            numbers[key] = number
            cache.keys[cached] = number
        }
        return numbers
    }

    /// Writes each bucket's new events as a tail of its `bucket_log` row, or folds them, the
    /// row and its tails into the row (see ``BucketLogTails``).
    private static func writeLog(_ buckets: [Int64: [BucketLog.Entry]], _ db: Database, app: AppID) throws {
        guard !buckets.isEmpty else { return }
        let logSize = try RawStatement(db, sql: "SELECT length(events) FROM bucket_log WHERE app_id = ?1 AND bucket = ?2")
        let tailSizes = try RawStatement(
            db, sql: "SELECT count(*), coalesce(sum(length(events)), 0) FROM bucket_log_tail WHERE app_id = ?1 AND bucket = ?2")
        let appendTail = try RawStatement(db, sql: "INSERT INTO bucket_log_tail (app_id, bucket, revision, events) VALUES (?1, ?2, ?3, ?4)")
        let folder = try LogFolder(db, app: app)
        for statement in [logSize, tailSizes, appendTail] { statement.bind(app.rawValue, at: 1) }
        appendTail.bind(folder.revision, at: 3)
        for (bucket, entries) in buckets {
            for statement in [logSize, tailSizes, appendTail] { statement.bind(bucket, at: 2) }
            let log = BucketLog(entries)
            if let size = try logSize.executeReturningFirstRow({ Int($0.int64(at: 0)) }) {
                let stored = try tailSizes.executeReturningRow { (count: Int($0.int64(at: 0)), bytes: Int($0.int64(at: 1))) }
                let new = log.encoded
                if BucketLogTails.appends(new.count, log: size, tails: stored) {
                    appendTail.bind(new, at: 4)
                    try appendTail.execute()
                    continue
                }
            }
            try folder.fold(bucket: bucket, adding: log)
        }
    }

    /// Folds buckets of an app into their `bucket_log` rows (see ``BucketLogTails``), inside a
    /// write: the stored log, its tails and new events into the log, written with a new
    /// revision, without the events of the users its removal tails name; its tails deleted,
    /// and its log too if no event is left.
    struct LogFolder {
        /// The revision the folded logs take.
        let revision: Int64
        private let readStored: RawStatement
        private let replaceLog: RawStatement
        private let deleteLog: RawStatement
        private let deleteTails: RawStatement

        init(_ db: Database, app: AppID) throws {
            readStored = try RawStatement(
                db,
                sql: """
                    SELECT events, NULL, false FROM bucket_log WHERE app_id = ?1 AND bucket = ?2
                    UNION ALL SELECT events, removed_user, true FROM bucket_log_tail WHERE app_id = ?1 AND bucket = ?2
                    """)
            replaceLog = try RawStatement(db, sql: "REPLACE INTO bucket_log (app_id, bucket, revision, events) VALUES (?1, ?2, ?3, ?4)")
            deleteLog = try RawStatement(db, sql: "DELETE FROM bucket_log WHERE app_id = ?1 AND bucket = ?2")
            deleteTails = try RawStatement(db, sql: "DELETE FROM bucket_log_tail WHERE app_id = ?1 AND bucket = ?2")
            revision = try Self.nextRevision(db)
            for statement in [readStored, replaceLog, deleteLog, deleteTails] { statement.bind(app.rawValue, at: 1) }
            replaceLog.bind(revision, at: 3)
        }

        /// A new revision of a `bucket_log` or `bucket_log_tail` row, never used before.
        static func nextRevision(_ db: Database) throws -> Int64 {
            try RawStatement(db, sql: "UPDATE bucket_log_revision SET revision = revision + 1 RETURNING revision").executeReturningRow {
                $0.int64(at: 0)
            }
        }

        /// Folds `bucket`, with `new` events.
        ///
        /// - Throws: ``DamagedRollup`` if a stored log or tail does not decode.
        func fold(bucket: Int64, adding new: BucketLog = BucketLog()) throws {
            for statement in [readStored, replaceLog, deleteLog, deleteTails] { statement.bind(bucket, at: 2) }
            var log = new
            var (tails, removed) = (0, Set<UInt32>())
            try readStored.forEachRow { row in
                tails += Int(row.int64(at: 2))
                if row.isNull(at: 1) {
                    log.merge(try row.withBlob(at: 0) { try BucketLog(encoded: $0) }.entries)
                } else {
                    removed.insert(UInt32(truncatingIfNeeded: row.int64(at: 1)))
                }
            }
            log.removeAll(users: removed)
            if log.entries.isEmpty {
                try deleteLog.execute()
            } else {
                replaceLog.bind(log.encoded, at: 4)
                try replaceLog.execute()
            }
            if tails > 0 { try deleteTails.execute() }
        }
    }

    /// Adds each day and key's new users to its `day_key_users` set.
    private static func writeDayKeys(_ rows: [DayKey: [UInt32]], _ db: Database, app: AppID) throws {
        let read = try RawStatement(db, sql: "SELECT users FROM day_key_users WHERE app_id = ?1 AND day = ?2 AND key = ?3")
        let write = try RawStatement(db, sql: "REPLACE INTO day_key_users (app_id, day, key, users) VALUES (?1, ?2, ?3, ?4)")
        read.bind(app.rawValue, at: 1)
        write.bind(app.rawValue, at: 1)
        for (row, users) in rows {
            read.bind(row.day, at: 2)
            read.bind(row.key, at: 3)
            var set = try read.executeReturningFirstRow { row in try row.withBlob(at: 0) { try UserSet(serialized: $0) } } ?? UserSet()
            let count = set.count
            for user in users { set.insert(user) }
            guard set.count != count else { continue }
            write.bind(row.day, at: 2)
            write.bind(row.key, at: 3)
            write.bind(set.serialized, at: 4)
            try write.execute()
        }
    }

    /// Stores each user property value that beats the stored one, moving its user between
    /// the values' `trait_users` sets.
    private static func writeTraits(_ traits: [TraitKey: Trait], _ db: Database, app: AppID) throws {
        guard !traits.isEmpty else { return }
        let read = try RawStatement(db, sql: "SELECT value_id, rank FROM user_trait WHERE app_id = ?1 AND property_id = ?2 AND user_number = ?3")
        let write = try RawStatement(
            db, sql: "REPLACE INTO user_trait (app_id, property_id, user_number, value_id, rank) VALUES (?1, ?2, ?3, ?4, ?5)")
        read.bind(app.rawValue, at: 1)
        write.bind(app.rawValue, at: 1)
        var moves = TraitMoves()
        for (key, trait) in traits {
            read.bind(key.property, at: 2)
            read.bind(Int64(key.user), at: 3)
            let stored = try read.executeReturningFirstRow { ($0.int64(at: 0), $0.int64(at: 1)) }
            if let stored {
                let wins = try trait.beats(stored) {
                    try String.fetchOne(db, sql: "SELECT text FROM label WHERE id = ?", arguments: [stored.0]) ?? ""
                }
                guard wins else { continue }
                if stored.0 != trait.value { moves.remove(key.user, from: TraitMoves.Row(property: key.property, value: stored.0)) }
            }
            moves.add(key.user, to: TraitMoves.Row(property: key.property, value: trait.value))
            write.bind(key.property, at: 2)
            write.bind(Int64(key.user), at: 3)
            write.bind(trait.value, at: 4)
            write.bind(trait.rank, at: 5)
            try write.execute()
        }
        let readSet = try RawStatement(db, sql: "SELECT users FROM trait_users WHERE app_id = ?1 AND property_id = ?2 AND value_id = ?3")
        let writeSet = try RawStatement(db, sql: "REPLACE INTO trait_users (app_id, property_id, value_id, users) VALUES (?1, ?2, ?3, ?4)")
        readSet.bind(app.rawValue, at: 1)
        writeSet.bind(app.rawValue, at: 1)
        for (row, change) in moves.rows {
            readSet.bind(row.property, at: 2)
            readSet.bind(row.value, at: 3)
            var set = try readSet.executeReturningFirstRow { row in try row.withBlob(at: 0) { try UserSet(serialized: $0) } } ?? UserSet()
            change.apply(to: &set)
            writeSet.bind(row.property, at: 2)
            writeSet.bind(row.value, at: 3)
            writeSet.bind(set.serialized, at: 4)
            try writeSet.execute()
        }
    }
}

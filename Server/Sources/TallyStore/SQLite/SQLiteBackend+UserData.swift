import Foundation
import GRDB
import TallyEvent

extension SQLiteBackend {
    /// The raw events one write of a deletion deletes at most, before the write of the
    /// rollups: the write lock is released in between, for ingest's commits.
    static let erasureBatch = 1_000

    /// Deletes the user's raw events first, ``erasureBatch`` milliseconds of the logs a write,
    /// then the rest in one write: the rollups, the raw events that arrived meanwhile, the
    /// segment keys and labels nothing refers to any more. Every write runs with
    /// `secure_delete`, and the WAL is checkpointed and truncated afterwards, so that neither
    /// the database file nor the WAL keeps what was deleted.
    func deleteUser(_ user: String, app: AppID, by actor: String, at time: Date) async throws -> UserDeletion? {
        let (logged, lastRow) = try await pool.read { db in
            var logged: [AppID: Set<Int64>] = [:]
            for id in [app, app.debug] { logged[id] = try Self.loggedMilliseconds(of: user, app: id, db) }
            return (logged, try Int64.fetchOne(db, sql: "SELECT max(rowid) FROM event") ?? 0)
        }
        for (id, milliseconds) in logged {
            let sorted = milliseconds.sorted()
            for start in stride(from: 0, to: sorted.count, by: Self.erasureBatch) {
                let batch = sorted[start..<min(start + Self.erasureBatch, sorted.count)]
                try await writeErasing { db in try Self.erase(user, app: id, at: batch, db) }
                try Task.checkCancellation()
            }
        }
        let deletion = try await writeErasing { [groupCommit] db -> UserDeletion? in
            var events: Int?
            var keys: [AppID: Set<Int64>] = [:]
            var labels: Set<Int64> = []
            for id in [app, app.debug] {
                guard let removal = try Self.delete(user, app: id, erased: logged[id] ?? [], after: lastRow, db) else { continue }
                events = (events ?? 0) + removal.events
                keys[id] = removal.keys
                labels.formUnion(removal.labels)
            }
            guard let events else { return nil }
            if let label = try Int64.fetchOne(db, sql: "SELECT id FROM label WHERE text = ?", arguments: [user]) { labels.insert(label) }
            try Self.deleteUnreferenced(keys: keys, labels: labels, db)
            try db.execute(
                sql: "INSERT INTO user_deletion (app_id, deleted_at, deleted_by, events) VALUES (?, ?, ?, ?)",
                arguments: [app.rawValue, time.unixMilliseconds, actor, events])
            // Ids whose events ingest no longer accepts need not be kept.
            try db.execute(
                sql: """
                    DELETE FROM erased_event
                    WHERE timestamp < ?1 - 1000 * (SELECT accepted_event_age FROM app WHERE app.id = abs(erased_event.app_id))
                    """, arguments: [time.unixMilliseconds])
            // Inside the write, which the group writer's transactions wait for: its next one
            // looks the user and the labels up again.
            groupCommit.writer.forgetCommittedFacts()
            return UserDeletion(app: app, deletedAt: Date(unixMilliseconds: time.unixMilliseconds), deletedBy: actor, events: events)
        }
        guard deletion != nil else { return nil }
        try await truncateWAL()
        return deletion
    }

    /// Runs `body` in a transaction of the writer with `secure_delete` on, so that the rows it
    /// deletes are overwritten with zeros in the pages that held them.
    private func writeErasing<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA secure_delete = ON")
            defer { try? db.execute(sql: "PRAGMA secure_delete = OFF") }
            var result: T?
            try db.inTransaction {
                result = try body(db)
                return .commit
            }
            return result!
        }
    }

    /// Copies the WAL's pages into the database file and empties it: first beside the writer
    /// (a passive checkpoint, which takes no write lock, as pruning does), then the pages
    /// committed since, on the writer, which waits for the readers of older pages.
    private func truncateWAL() async throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(Self.busyTimeout)
        let checkpointer = try DatabaseQueue(path: pool.path, configuration: configuration)
        // One that fails (busy while another checkpoint runs) leaves the pages to the truncation.
        try? await checkpointer.writeWithoutTransaction { _ = try $0.checkpoint(.passive) }
        try await pool.writeWithoutTransaction { _ = try $0.checkpoint(.truncate) }
    }

    func foldUserRemovals(limit: Int) async throws -> Int {
        try await pool.write { db in
            let buckets = try Row.fetchAll(
                db, sql: "SELECT DISTINCT app_id, bucket FROM bucket_log_tail WHERE removed_user IS NOT NULL ORDER BY app_id, bucket LIMIT ?",
                arguments: [limit]
            ).map { (app: $0[0] as Int64, bucket: $0[1] as Int64) }
            var folder: (app: Int64, folder: SegmentDelta.LogFolder)?
            for (app, bucket) in buckets {
                if folder?.app != app { folder = (app, try SegmentDelta.LogFolder(db, app: AppID(rawValue: app))) }
                try folder!.folder.fold(bucket: bucket)
            }
            return buckets.count
        }
    }

    func userDeletions(app: AppID) async throws -> [UserDeletion] {
        try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT deleted_at, deleted_by, events FROM user_deletion WHERE app_id = ? ORDER BY id", arguments: [app.rawValue]
            ).map { UserDeletion(app: app, deletedAt: Date(unixMilliseconds: $0[0]), deletedBy: $0[1], events: $0[2]) }
        }
    }

    func exportUserEvents(app: AppID, user: String, at timestamps: [Int64]) async throws -> (bytes: [UInt8], count: Int) {
        try await pool.read { db in
            let rows = try RawStatement(
                db, sql: "SELECT \(Event.columns) FROM event WHERE app_id = ?1 AND timestamp = ?2 AND user_id = ?3 ORDER BY rowid")
            rows.bind(app.rawValue, at: 1)
            rows.bind(user, at: 3)
            var writer = ExportWriter(format: .ndjson, app: app.rawValue, capacity: timestamps.count * 400)
            var count = 0
            for timestamp in timestamps.sorted() {
                rows.bind(timestamp, at: 2)
                try rows.forEachRow { row in
                    writer.append(row)
                    count += 1
                }
            }
            return (writer.bytes, count)
        }
    }

    /// The number of `user` under `app` and the first day of its events, or `nil` without such a
    /// user.
    private static func appUser(_ user: String, app: AppID, _ db: Database) throws -> (number: UInt32, firstDay: Int64)? {
        try Row.fetchOne(db, sql: "SELECT number, first_seen FROM app_user WHERE app_id = ? AND user_id = ?", arguments: [app.rawValue, user])
            .map { (UInt32($0[0] as Int64), Bucket.day(of: Bucket.containing(milliseconds: $0[1]))) }
    }

    /// The milliseconds of `user`'s events under `app` that the logs hold, read without a write.
    private static func loggedMilliseconds(of user: String, app: AppID, _ db: Database) throws -> Set<Int64> {
        guard let (number, firstDay) = try appUser(user, app: app, db) else { return [] }
        var removal = UserRemoval(number: number)
        var buckets: [Int64] = []
        for day in try changedSets(removal, table: "day_users", column: "day", in: firstDay..<Int64.max, db, app: app).map(\.period) {
            buckets += try changedSets(
                removal, table: "bucket_users", column: "bucket", in: day * Bucket.perDay..<(day + 1) * Bucket.perDay, db, app: app
            ).map(\.period)
        }
        _ = try find(&removal, buckets: buckets, db, app: app)
        return removal.milliseconds
    }

    /// Deletes `user`'s rows under `app` (see ``UserRemoval``) and returns what was removed, or
    /// `nil` without such a user. Of the raw events, those at the milliseconds of `erased` are
    /// deleted already, except those stored after the row `lastRow`.
    private static func delete(_ user: String, app: AppID, erased: Set<Int64>, after lastRow: Int64, _ db: Database) throws -> UserRemoval? {
        guard let (number, firstDay) = try appUser(user, app: app, db) else { return nil }
        var removal = UserRemoval(number: number)
        let days = try removeFromSets(removal, table: "day_users", column: "day", in: firstDay..<Int64.max, db, app: app)
        var buckets: [Int64] = []
        for day in days {
            buckets += try removeFromSets(
                removal, table: "bucket_users", column: "bucket", in: day * Bucket.perDay..<(day + 1) * Bucket.perDay, db, app: app)
        }
        try removeFromLogs(&removal, buckets: buckets, db, app: app)
        try removeFromActivity(removal, buckets: buckets, db, app: app)
        try subtract(removal.names, from: "name_bucket", keyColumn: "name_id", db, app: app)
        try subtract(removal.screens, from: "screen_bucket", keyColumn: "screen_id", db, app: app)
        for row in removal.dayKeys {
            try removeFromSet(removal, table: "day_key_users", condition: "day = ?2 AND key = ?3", (row.day, row.key), db, app: app)
        }
        let properties = try Int64.fetchAll(db, sql: "SELECT DISTINCT property_id FROM trait_users WHERE app_id = ?", arguments: [app.rawValue])
        for property in properties {
            guard
                let value = try Int64.fetchOne(
                    db, sql: "DELETE FROM user_trait WHERE app_id = ? AND property_id = ? AND user_number = ? RETURNING value_id",
                    arguments: [app.rawValue, property, Int64(number)])
            else { continue }
            removal.removedTrait(property: property, value: value)
            try removeFromSet(removal, table: "trait_users", condition: "property_id = ?2 AND value_id = ?3", (property, value), db, app: app)
        }
        try erase(user, app: app, at: removal.milliseconds.subtracting(erased), db)
        for sql in [
            "INSERT INTO erased_event (app_id, id, timestamp) SELECT app_id, id, timestamp FROM event WHERE app_id = ? AND rowid > ? AND user_id = ?",
            "DELETE FROM event WHERE app_id = ? AND rowid > ? AND user_id = ?",
        ] {
            try db.execute(sql: sql, arguments: [app.rawValue, lastRow, user])
        }
        try db.execute(sql: "DELETE FROM app_user WHERE app_id = ? AND user_id = ?", arguments: [app.rawValue, user])
        try db.execute(sql: "DELETE FROM purchase WHERE app_id = ? AND user_number = ?", arguments: [app.rawValue, Int64(number)])
        try db.execute(
            sql: """
                INSERT INTO user_number_floor (app_id, next) VALUES (?1, ?2)
                ON CONFLICT (app_id) DO UPDATE SET next = max(next, excluded.next)
                """, arguments: [app.rawValue, Int64(number) + 1])
        return removal
    }

    /// Deletes `user`'s raw events under `app` at `milliseconds`, and keeps their ids, without
    /// the user's, in `erased_event`: ingest counts them as duplicates (see
    /// ``SQLiteGroupWriter``) until the deletion after the app stops accepting them.
    private static func erase(_ user: String, app: AppID, at milliseconds: some Sequence<Int64>, _ db: Database) throws {
        let statements = try [
            "INSERT INTO erased_event (app_id, id, timestamp) SELECT app_id, id, timestamp FROM event WHERE app_id = ?1 AND timestamp = ?2 AND user_id = ?3",
            "DELETE FROM event WHERE app_id = ?1 AND timestamp = ?2 AND user_id = ?3",
        ].map { try RawStatement(db, sql: $0) }
        for statement in statements {
            statement.bind(app.rawValue, at: 1)
            statement.bind(user, at: 3)
        }
        for millisecond in milliseconds {
            for statement in statements {
                statement.bind(millisecond, at: 2)
                try statement.execute()
            }
        }
    }

    /// The periods of `table`'s rows in `periods` whose `active` or `first` set holds the
    /// user, and what each becomes without the user.
    private static func changedSets(
        _ removal: UserRemoval, table: String, column: String, in periods: Range<Int64>, _ db: Database, app: AppID
    ) throws -> [(period: Int64, change: RowChange<(active: UserSet, first: UserSet)>)] {
        let read = try RawStatement(
            db, sql: "SELECT \(column), active, first FROM \(table) WHERE app_id = ?1 AND \(column) >= ?2 AND \(column) < ?3")
        read.bind(app.rawValue, at: 1)
        read.bind(periods.lowerBound, at: 2)
        read.bind(periods.upperBound, at: 3)
        var changes: [(period: Int64, change: RowChange<(active: UserSet, first: UserSet)>)] = []
        try read.forEachRow { row in
            let change = removal.sets(
                active: try row.withBlob(at: 1) { try UserSet(serialized: $0) }, first: try row.withBlob(at: 2) { try UserSet(serialized: $0) })
            if case .unchanged = change { return }
            changes.append((row.int64(at: 0), change))
        }
        return changes
    }

    /// Takes the user out of the `active` and `first` sets of `table`'s rows in `periods`,
    /// and returns the periods whose sets held the user.
    private static func removeFromSets(
        _ removal: UserRemoval, table: String, column: String, in periods: Range<Int64>, _ db: Database, app: AppID
    ) throws -> [Int64] {
        let changes = try changedSets(removal, table: table, column: column, in: periods, db, app: app)
        for (period, change) in changes {
            switch change {
            case .unchanged: continue
            case .replaced(let sets):
                try db.execute(
                    sql: "UPDATE \(table) SET active = ?, first = ? WHERE app_id = ? AND \(column) = ?",
                    arguments: [Data(sets.active.serialized), Data(sets.first.serialized), app.rawValue, period])
            case .deleted:
                try db.execute(sql: "DELETE FROM \(table) WHERE app_id = ? AND \(column) = ?", arguments: [app.rawValue, period])
            }
        }
        return changes.map(\.period)
    }

    /// Takes the user out of the `users` set of the row of `table` that `condition` selects,
    /// given its two `values` as `?2` and `?3`.
    private static func removeFromSet(
        _ removal: UserRemoval, table: String, condition: String, _ values: (Int64, Int64), _ db: Database, app: AppID
    ) throws {
        let selected = "app_id = ?1 AND \(condition)"
        let arguments: StatementArguments = [app.rawValue, values.0, values.1]
        guard let stored = try Data.fetchOne(db, sql: "SELECT users FROM \(table) WHERE \(selected)", arguments: arguments) else { return }
        switch removal.set(try UserSet(serialized: [UInt8](stored))) {
        case .unchanged: return
        case .replaced(let users):
            try db.execute(sql: "UPDATE \(table) SET users = ?4 WHERE \(selected)", arguments: arguments + [Data(users.serialized)])
        case .deleted:
            try db.execute(sql: "DELETE FROM \(table) WHERE \(selected)", arguments: arguments)
        }
    }

    /// Records the user's events in the logs of `buckets` and their tails, and hides them with
    /// a removal tail in each bucket that has some (see ``BucketLogTails``): a new revision, so
    /// that no ``BucketLogCache`` entry serves the old log. The logs are left as they are.
    private static func removeFromLogs(_ removal: inout UserRemoval, buckets: [Int64], _ db: Database, app: AppID) throws {
        let found = try find(&removal, buckets: buckets, db, app: app)
        guard !found.isEmpty else { return }
        let hide = try RawStatement(
            db, sql: "INSERT INTO bucket_log_tail (app_id, bucket, revision, events, removed_user) VALUES (?1, ?2, ?3, x'', ?4)")
        hide.bind(app.rawValue, at: 1)
        hide.bind(try SegmentDelta.LogFolder.nextRevision(db), at: 3)
        hide.bind(Int64(removal.number), at: 4)
        for bucket in found {
            hide.bind(bucket, at: 2)
            try hide.execute()
        }
    }

    /// Records the user's events in the logs of `buckets` and their tails, and returns the
    /// buckets that have some.
    private static func find(_ removal: inout UserRemoval, buckets: [Int64], _ db: Database, app: AppID) throws -> [Int64] {
        guard !buckets.isEmpty else { return [] }
        let readStored = try RawStatement(
            db,
            sql: """
                SELECT events FROM bucket_log WHERE app_id = ?1 AND bucket = ?2
                UNION ALL SELECT events FROM bucket_log_tail WHERE app_id = ?1 AND bucket = ?2 AND removed_user IS NULL
                """)
        readStored.bind(app.rawValue, at: 1)
        var found: [Int64] = []
        for bucket in buckets {
            readStored.bind(bucket, at: 2)
            var holds = false
            try readStored.forEachRow { row in
                if try row.withBlob(at: 0, { try removal.find(in: $0, bucket: bucket) }) { holds = true }
            }
            if holds { found.append(bucket) }
        }
        return found
    }

    /// Takes the user out of the `bucket_activity` rows of `buckets`.
    private static func removeFromActivity(_ removal: UserRemoval, buckets: [Int64], _ db: Database, app: AppID) throws {
        let read = try RawStatement(db, sql: "SELECT names, versions FROM bucket_activity WHERE app_id = ?1 AND bucket = ?2")
        read.bind(app.rawValue, at: 1)
        for bucket in buckets {
            read.bind(bucket, at: 2)
            guard
                let change = try read.executeReturningFirstRow({ row in
                    try row.withBlob(at: 0) { names in try row.withBlob(at: 1) { try removal.activity(names: names, versions: $0) } }
                })
            else { continue }
            switch change {
            case .unchanged: continue
            case .replaced(let activity):
                try db.execute(
                    sql: "UPDATE bucket_activity SET names = ?, versions = ? WHERE app_id = ? AND bucket = ?",
                    arguments: [Data(activity.names), Data(activity.versions), app.rawValue, bucket])
            case .deleted:
                try db.execute(sql: "DELETE FROM bucket_activity WHERE app_id = ? AND bucket = ?", arguments: [app.rawValue, bucket])
            }
        }
    }

    /// Subtracts `counts` from the `count` column of `table`, deleting the rows that reach 0.
    private static func subtract(
        _ counts: [UserRemoval.Labeled: Int64], from table: String, keyColumn: String, _ db: Database, app: AppID
    ) throws {
        let update = try RawStatement(db, sql: "UPDATE \(table) SET count = count - ?4 WHERE app_id = ?1 AND bucket = ?2 AND \(keyColumn) = ?3")
        let delete = try RawStatement(
            db, sql: "DELETE FROM \(table) WHERE app_id = ?1 AND bucket = ?2 AND \(keyColumn) = ?3 AND count <= 0")
        update.bind(app.rawValue, at: 1)
        delete.bind(app.rawValue, at: 1)
        for (row, count) in counts {
            for statement in [update, delete] {
                statement.bind(row.bucket, at: 2)
                statement.bind(row.label, at: 3)
            }
            update.bind(count, at: 4)
            try update.execute()
            try delete.execute()
        }
    }

    /// Deletes the segment keys among `keys` (per app id) or holding one of `labels` or their
    /// labels that no `day_key_users` or `purchase` row refers to any more, then the labels
    /// among `labels` and theirs that nothing refers to any more: the values only a deleted
    /// user sent.
    private static func deleteUnreferenced(keys: [AppID: Set<Int64>], labels: Set<Int64>, _ db: Database) throws {
        var labels = labels
        func deleteUnused(_ keys: [AppID: Set<Int64>]) throws {
            for (app, keys) in keys where !keys.isEmpty {
                let used = try Set(
                    Int64.fetchAll(
                        db,
                        sql: """
                            WITH candidate AS (SELECT value AS id FROM json_each(?2))
                            SELECT key FROM day_key_users WHERE app_id = ?1 AND key IN candidate
                            UNION SELECT segment_key FROM purchase WHERE app_id = ?1 AND segment_key IN candidate
                            """, arguments: [app.rawValue, jsonArray(keys)]))
                for key in keys.subtracting(used) {
                    guard
                        let stored = try Data.fetchOne(
                            db, sql: "DELETE FROM segment_key WHERE app_id = ? AND id = ? RETURNING labels", arguments: [app.rawValue, key])
                    else { continue }
                    labels.formUnion(try stored.withUnsafeBytes { try SegmentKey.decoded($0) })
                }
            }
        }
        try deleteUnused(keys)
        labels.remove(0)
        // Keys that hold one of the labels, those of the keys just deleted too (the user's app
        // versions), are candidates then: those a rebuild of the segment keys (new segment
        // properties) left, which no event refers to.
        var left: [AppID: Set<Int64>] = [:]
        let stored = try RawStatement(db, sql: "SELECT app_id, id, labels FROM segment_key")
        try stored.forEachRow { row in
            guard try row.withBlob(at: 2, { try SegmentKey.decoded($0) }).contains(where: labels.contains) else { return }
            left[AppID(rawValue: row.int64(at: 0)), default: []].insert(row.int64(at: 1))
        }
        try deleteUnused(left)
        labels.remove(0)
        guard !labels.isEmpty else { return }
        let candidates = jsonArray(labels)
        // A value's set that users left, empty, refers to the label still.
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT app_id, property_id, value_id, users FROM trait_users
                WHERE property_id IN (SELECT value FROM json_each(?1)) OR value_id IN (SELECT value FROM json_each(?1))
                """, arguments: [candidates])
        {
            let (app, property, value, users): (Int64, Int64, Int64, Data) = (row[0], row[1], row[2], row[3])
            guard try UserSet(serialized: [UInt8](users)).isEmpty else { continue }
            try db.execute(
                sql: "DELETE FROM trait_users WHERE app_id = ? AND property_id = ? AND value_id = ?", arguments: [app, property, value])
        }
        var referenced = try Set(
            Int64.fetchAll(
                db,
                sql: """
                    WITH candidate AS (SELECT value AS id FROM json_each(?))
                    SELECT name_id FROM name_bucket WHERE name_id IN candidate
                    UNION SELECT screen_id FROM screen_bucket WHERE screen_id IN candidate
                    UNION SELECT property_id FROM user_trait WHERE property_id IN candidate
                    UNION SELECT value_id FROM user_trait WHERE value_id IN candidate
                    UNION SELECT property_id FROM trait_users WHERE property_id IN candidate
                    UNION SELECT value_id FROM trait_users WHERE value_id IN candidate
                    """, arguments: [candidates]))
        let keyLabels = try RawStatement(db, sql: "SELECT labels FROM segment_key")
        try keyLabels.forEachRow { row in
            referenced.formUnion(try row.withBlob(at: 0) { try SegmentKey.decoded($0) }.filter(labels.contains))
        }
        let unreferenced = labels.subtracting(referenced)
        guard !unreferenced.isEmpty else { return }
        try db.execute(sql: "DELETE FROM label WHERE id IN (SELECT value FROM json_each(?))", arguments: [jsonArray(unreferenced)])
    }

    /// `numbers` as a JSON array, which `json_each` reads.
    private static func jsonArray(_ numbers: Set<Int64>) -> String {
        "[" + numbers.map(String.init).joined(separator: ",") + "]"
    }
}

import Foundation
import GRDB
import TallyEvent

extension SQLiteBackend {
    func deleteUser(_ user: String, app: AppID, by actor: String, at time: Date) async throws -> UserDeletion? {
        try await pool.write { [groupCommit] db in
            var events: Int?
            for id in [app, app.debug] {
                guard let deleted = try Self.delete(user, app: id, db) else { continue }
                events = (events ?? 0) + deleted
            }
            guard let events else { return nil }
            try Self.deleteLabel(user, db)
            try db.execute(
                sql: "INSERT INTO user_deletion (app_id, deleted_at, deleted_by, events) VALUES (?, ?, ?, ?)",
                arguments: [app.rawValue, time.unixMilliseconds, actor, events])
            // Inside the write, which the group writer's transactions wait for: its next one
            // looks the user and the labels up again.
            groupCommit.writer.forgetCommittedFacts()
            return UserDeletion(app: app, deletedAt: Date(unixMilliseconds: time.unixMilliseconds), deletedBy: actor, events: events)
        }
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

    /// Deletes `user`'s rows under `app` (see ``UserRemoval``) and returns how many events the
    /// rollups held, or `nil` without such a user.
    private static func delete(_ user: String, app: AppID, _ db: Database) throws -> Int? {
        guard
            let (number, firstSeen) = try Row.fetchOne(
                db, sql: "SELECT number, first_seen FROM app_user WHERE app_id = ? AND user_id = ?", arguments: [app.rawValue, user]
            ).map({ (UInt32($0[0] as Int64), $0[1] as Int64) })
        else { return nil }
        var removal = UserRemoval(number: number)
        let firstDay = Bucket.day(of: Bucket.containing(milliseconds: firstSeen))
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
            try removeFromSet(removal, table: "trait_users", condition: "property_id = ?2 AND value_id = ?3", (property, value), db, app: app)
        }
        let deleteEvents = try RawStatement(db, sql: "DELETE FROM event WHERE app_id = ?1 AND timestamp = ?2 AND user_id = ?3")
        deleteEvents.bind(app.rawValue, at: 1)
        deleteEvents.bind(user, at: 3)
        for millisecond in removal.milliseconds {
            deleteEvents.bind(millisecond, at: 2)
            try deleteEvents.execute()
        }
        try db.execute(sql: "DELETE FROM app_user WHERE app_id = ? AND user_id = ?", arguments: [app.rawValue, user])
        try db.execute(sql: "DELETE FROM purchase WHERE app_id = ? AND user_number = ?", arguments: [app.rawValue, Int64(number)])
        try db.execute(
            sql: """
                INSERT INTO user_number_floor (app_id, next) VALUES (?1, ?2)
                ON CONFLICT (app_id) DO UPDATE SET next = max(next, excluded.next)
                """, arguments: [app.rawValue, Int64(number) + 1])
        return removal.events
    }

    /// Takes the user out of the `active` and `first` sets of `table`'s rows in `periods`,
    /// and returns the periods whose sets held the user.
    private static func removeFromSets(
        _ removal: UserRemoval, table: String, column: String, in periods: Range<Int64>, _ db: Database, app: AppID
    ) throws -> [Int64] {
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
        guard !buckets.isEmpty else { return }
        let readStored = try RawStatement(
            db,
            sql: """
                SELECT events FROM bucket_log WHERE app_id = ?1 AND bucket = ?2
                UNION ALL SELECT events FROM bucket_log_tail WHERE app_id = ?1 AND bucket = ?2 AND removed_user IS NULL
                """)
        let hide = try RawStatement(
            db, sql: "INSERT INTO bucket_log_tail (app_id, bucket, revision, events, removed_user) VALUES (?1, ?2, ?3, x'', ?4)")
        for statement in [readStored, hide] { statement.bind(app.rawValue, at: 1) }
        hide.bind(try SegmentDelta.LogFolder.nextRevision(db), at: 3)
        hide.bind(Int64(removal.number), at: 4)
        for bucket in buckets {
            readStored.bind(bucket, at: 2)
            var found = false
            try readStored.forEachRow { row in
                if try row.withBlob(at: 0, { try removal.find(in: $0, bucket: bucket) }) { found = true }
            }
            guard found else { continue }
            hide.bind(bucket, at: 2)
            try hide.execute()
        }
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

    /// Deletes the `label` whose text is the user's id, if nothing refers to it any more:
    /// segment keys that hold it and that no event refers to any more go first.
    private static func deleteLabel(_ text: String, _ db: Database) throws {
        guard let label = try Int64.fetchOne(db, sql: "SELECT id FROM label WHERE text = ?", arguments: [text]) else { return }
        for row in try Row.fetchAll(db, sql: "SELECT app_id, id, labels FROM segment_key") {
            let (app, key, labels): (Int64, Int64, Data) = (row[0], row[1], row[2])
            guard try labels.withUnsafeBytes({ try SegmentKey.decoded($0) }).contains(label) else { continue }
            let used =
                try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM day_key_users WHERE app_id = ? AND key = ?)", arguments: [app, key]) ?? true
            guard !used else { return }
            try db.execute(sql: "DELETE FROM segment_key WHERE app_id = ? AND id = ?", arguments: [app, key])
        }
        // A value's set that users left, empty, refers to the label still.
        for row in try Row.fetchAll(
            db, sql: "SELECT app_id, property_id, value_id, users FROM trait_users WHERE property_id = ?1 OR value_id = ?1", arguments: [label])
        {
            let (app, property, value, users): (Int64, Int64, Int64, Data) = (row[0], row[1], row[2], row[3])
            guard try UserSet(serialized: [UInt8](users)).isEmpty else { continue }
            try db.execute(
                sql: "DELETE FROM trait_users WHERE app_id = ? AND property_id = ? AND value_id = ?", arguments: [app, property, value])
        }
        let referenced =
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM name_bucket WHERE name_id = ?1)
                        OR EXISTS (SELECT 1 FROM screen_bucket WHERE screen_id = ?1)
                        OR EXISTS (SELECT 1 FROM user_trait WHERE property_id = ?1 OR value_id = ?1)
                        OR EXISTS (SELECT 1 FROM trait_users WHERE property_id = ?1 OR value_id = ?1)
                    """, arguments: [label]) ?? true
        guard !referenced else { return }
        try db.execute(sql: "DELETE FROM label WHERE id = ?", arguments: [label])
    }
}

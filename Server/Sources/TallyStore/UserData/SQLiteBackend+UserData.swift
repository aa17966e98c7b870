import Foundation
import GRDB
import GRDBSQLite
import TallyEvent

extension SQLiteBackend {
    /// The most events of the user one write of a deletion takes out (a chunk of consecutive
    /// buckets; a bucket holding more is a write of its own), so that ingest's commits, every
    /// app's, get in between: about 1,000 events' rollups and raw rows a write.
    static let erasureChunk = 1_000

    /// Deletes `user`'s data in writes that leave the write lock between them, each with
    /// `secure_delete`, so that the pages that held what is deleted are overwritten with zeros:
    ///
    /// 1. The user is detached: its `app_user` rows go and a ``PendingErasure`` records its
    ///    numbers. The user's next event makes a new user, so nothing is added to what the
    ///    numbers hold from then on, and each later write can recompute its part from the
    ///    store alone.
    /// 2. Chunks of the buckets whose user sets hold a number: their sets, logs, activity,
    ///    name and screen counts, the day keys their events fall in, and the raw events, whose
    ///    ids go to `erased_event`.
    /// 3. The day sets, user properties and purchases, the segment keys and labels nothing
    ///    refers to any more, and the record of the deletion.
    ///
    /// Then the WAL is emptied (``truncateWAL()``). A deletion cut short (the process killed)
    /// is finished by ``finishInterruptedDeletions(now:)``.
    func deleteUser(_ user: String, app: AppID, by actor: String, at time: Date) async throws -> UserDeletion? {
        let detached = try await writeErasing { [groupCommit] db -> PendingErasure? in
            let erasure = try PendingErasure.detach(user, app: app, by: actor, at: time.unixMilliseconds, db)
            // Inside the write, which ingest's transactions wait for: its next one looks the
            // user up again, and makes a new one.
            if erasure != nil { groupCommit.writer.forgetCommittedFacts() }
            return erasure
        }
        guard let detached else { return nil }
        return try await finish(detached)
    }

    /// Finishes the deletions cut short that no process has worked on for a minute (the
    /// process that began one writes every few milliseconds), and forgets the ids of erased
    /// events their apps no longer accept. `tally serve` runs it every minute.
    func finishInterruptedDeletions(now: Date) async throws -> Int {
        let stale = try await pool.write { db in
            try PendingErasure.claim(untouchedSince: now.unixMilliseconds - PendingErasure.lease, now: now.unixMilliseconds, db)
        }
        for erasure in stale { _ = try await finish(erasure) }
        try await pool.write { db in
            for row in try Row.fetchAll(db, sql: "SELECT id, accepted_event_age FROM app") {
                // In SQL, where an age too great for milliseconds overflows to a real, not a trap.
                try db.execute(
                    sql: "DELETE FROM erased_event WHERE app_id IN (?1, -?1) AND timestamp < ?2 - 1000 * ?3",
                    arguments: [row[0] as Int64, now.unixMilliseconds, row[1] as Int64])
            }
        }
        return stale.count
    }

    /// Steps 2 and 3 of ``deleteUser(_:app:by:at:)`` for `erasure`, and the WAL's truncation.
    /// Every write recomputes its part from the store, so two processes finishing the same
    /// deletion take nothing out twice; the one whose last write comes second returns the
    /// record the first kept.
    private func finish(_ erasure: PendingErasure) async throws -> UserDeletion {
        for part in erasure.parts {
            let chunks = try await pool.read { db in try Self.chunks(of: part, db) }
            for chunk in chunks {
                try await writeErasing { db in try Self.erase(chunk, of: part, in: erasure, db) }
                try Task.checkCancellation()
            }
        }
        let deletion = try await writeErasing { [groupCommit] db -> UserDeletion in
            if let deletion = try Self.close(erasure, db) {
                // Labels and segment keys may be gone: ingest's next transaction looks them up again.
                groupCommit.writer.forgetCommittedFacts()
                return deletion
            }
            return try Self.record(of: erasure, db)
        }
        try await truncateWAL()
        return deletion
    }

    /// The buckets of `part`'s user sets that hold its number, in chunks of consecutive buckets
    /// whose logs hold at most `limit` of its events (or one bucket), read without a write:
    /// nothing adds to what the number holds once it is detached.
    static func chunks(of part: PendingErasure.Part, limit: Int = erasureChunk, _ db: Database) throws -> [ClosedRange<Int64>] {
        let (app, removal) = (AppID(rawValue: part.app), UserRemoval(number: part.number))
        var chunks: [ClosedRange<Int64>] = []
        var events = 0
        for day in try changedSets(removal, table: "day_users", column: "day", in: part.firstDay..<Int64.max, db, app: app).map(\.period) {
            let periods = day * Bucket.perDay..<(day + 1) * Bucket.perDay
            for bucket in try changedSets(removal, table: "bucket_users", column: "bucket", in: periods, db, app: app).map(\.period) {
                var found = removal
                _ = try find(&found, buckets: [bucket], db, app: app)
                if let last = chunks.last, events + found.events <= limit {
                    chunks[chunks.count - 1] = last.lowerBound...bucket
                    events += found.events
                } else {
                    chunks.append(bucket...bucket)
                    events = found.events
                }
            }
        }
        return chunks
    }

    /// Takes `part`'s number out of the buckets of `chunk` (their sets, logs, activity, name
    /// and screen counts, and the day keys of their events) and deletes the user's raw events
    /// there, recording in `erasure`'s row the events, keys and labels found.
    static func erase(_ chunk: ClosedRange<Int64>, of part: PendingErasure.Part, in erasure: PendingErasure, _ db: Database) throws {
        let app = AppID(rawValue: part.app)
        var removal = UserRemoval(number: part.number)
        let buckets = try removeFromSets(
            removal, table: "bucket_users", column: "bucket", in: chunk.lowerBound..<chunk.upperBound + 1, db, app: app)
        try removeFromLogs(&removal, buckets: buckets, db, app: app)
        try removeFromActivity(removal, buckets: buckets, db, app: app)
        try subtract(removal.names, from: "name_bucket", keyColumn: "name_id", db, app: app)
        try subtract(removal.screens, from: "screen_bucket", keyColumn: "screen_id", db, app: app)
        for row in removal.dayKeys {
            try removeFromSet(removal, table: "day_key_users", condition: "day = ?2 AND key = ?3", (row.day, row.key), db, app: app)
        }
        try eraseEvents(of: erasure, app: app, at: removal.milliseconds, db)
        try PendingErasure.add(removal, of: part, to: erasure.id, db)
    }

    /// Step 3 of ``deleteUser(_:app:by:at:)``: takes the numbers of `erasure` out of the day
    /// sets, deletes their user properties and purchases, the segment keys and labels nothing
    /// refers to any more, and the pending row; keeps the record and returns it, or `nil` when
    /// the row is gone (another process closed it).
    private static func close(_ erasure: PendingErasure, _ db: Database) throws -> UserDeletion? {
        guard var state = try PendingErasure.take(erasure.id, db) else { return nil }
        for part in state.parts {
            let app = AppID(rawValue: part.app)
            var removal = UserRemoval(number: part.number)
            _ = try removeFromSets(removal, table: "day_users", column: "day", in: part.firstDay..<Int64.max, db, app: app)
            let properties = try Int64.fetchAll(
                db, sql: "SELECT DISTINCT property_id FROM trait_users WHERE app_id = ?", arguments: [app.rawValue])
            for property in properties {
                guard
                    let value = try Int64.fetchOne(
                        db, sql: "DELETE FROM user_trait WHERE app_id = ? AND property_id = ? AND user_number = ? RETURNING value_id",
                        arguments: [app.rawValue, property, Int64(part.number)])
                else { continue }
                removal.removedTrait(property: property, value: value)
                try removeFromSet(
                    removal, table: "trait_users", condition: "property_id = ?2 AND value_id = ?3", (property, value), db, app: app)
            }
            state.labels.formUnion(removal.labels)
            try db.execute(sql: "DELETE FROM purchase WHERE app_id = ? AND user_number = ?", arguments: [app.rawValue, Int64(part.number)])
        }
        if let label = try Int64.fetchOne(db, sql: "SELECT id FROM label WHERE text = ?", arguments: [state.user]) {
            state.labels.insert(label)
        }
        try deleteUnreferenced(keys: state.keysByApp, labels: state.labels, db)
        try db.execute(
            sql: "INSERT INTO user_deletion (app_id, deleted_at, deleted_by, events) VALUES (?, ?, ?, ?)",
            arguments: [state.app, state.deletedAt, state.deletedBy, state.events])
        return state.deletion(events: state.events)
    }

    /// The record kept of `erasure`'s deletion, which another process closed.
    private static func record(of erasure: PendingErasure, _ db: Database) throws -> UserDeletion {
        guard
            let events = try Int.fetchOne(
                db, sql: "SELECT events FROM user_deletion WHERE app_id = ? AND deleted_at = ? AND deleted_by = ? ORDER BY id DESC",
                arguments: [erasure.app, erasure.deletedAt, erasure.deletedBy])
        else { throw DatabaseError(resultCode: .SQLITE_NOTFOUND, message: "the deletion's record is missing") }
        return erasure.deletion(events: events)
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

    /// Copies the WAL's pages into the database file and empties it, without holding ingest
    /// up: first beside the writer (a passive checkpoint, which takes no write lock), then on
    /// the writer, where a truncating checkpoint copies the few pages committed since and
    /// empties the WAL if no reader still reads older pages. It does not wait for such a reader
    /// (with the write lock held, ingest would wait too): it is tried again a moment later, for
    /// up to ``truncationPatience``. Returns whether the WAL was emptied.
    @discardableResult
    func truncateWAL() async throws -> Bool {
        var configuration = Configuration()
        configuration.busyMode = .timeout(Self.busyTimeout)
        let checkpointer = try DatabaseQueue(path: pool.path, configuration: configuration)
        // One that fails (busy while another checkpoint runs) leaves the pages to the truncation.
        try? await checkpointer.writeWithoutTransaction { _ = try $0.checkpoint(.passive) }
        let clock = ContinuousClock()
        let deadline = clock.now + Self.truncationPatience
        while true {
            let emptied = try await pool.writeWithoutTransaction { db in
                let connection = db.sqliteConnection
                sqlite3_busy_timeout(connection, 0)
                defer { sqlite3_busy_timeout(connection, Int32(Self.busyTimeout * 1_000)) }
                do {
                    _ = try db.checkpoint(.truncate)
                    return true
                } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                    return false
                }
            }
            if emptied { return true }
            guard clock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// How long ``truncateWAL()`` tries to empty the WAL while readers read older pages.
    static let truncationPatience = Duration.seconds(60)

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

    /// Deletes the raw events of `erasure`'s user under `app` at `milliseconds` that were
    /// stored before it was detached, and keeps their ids, without the user's, in
    /// `erased_event`: ingest counts them as duplicates (see ``SQLiteGroupWriter``) until
    /// ``finishInterruptedDeletions(now:)`` finds the app no longer accepts them.
    private static func eraseEvents(of erasure: PendingErasure, app: AppID, at milliseconds: Set<Int64>, _ db: Database) throws {
        let statements = try [
            """
            INSERT OR IGNORE INTO erased_event (app_id, id, timestamp) SELECT app_id, id, timestamp FROM event
            WHERE app_id = ?1 AND timestamp = ?2 AND user_id = ?3 AND rowid <= ?4
            """,
            "DELETE FROM event WHERE app_id = ?1 AND timestamp = ?2 AND user_id = ?3 AND rowid <= ?4",
        ].map { try RawStatement(db, sql: $0) }
        for statement in statements {
            statement.bind(app.rawValue, at: 1)
            statement.bind(erasure.user, at: 3)
            statement.bind(erasure.lastRow, at: 4)
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

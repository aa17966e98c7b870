import GRDB
import Locking

/// Writes ``GroupCommit``'s transactions to SQLite: each committed with
/// `synchronous = NORMAL` (written to the WAL, not yet synced), then made durable by
/// ``WALSync`` beside the writer.
///
/// Statements are prepared per transaction (per batch for the insert), not taken from GRDB's
/// statement cache: after a failed step, a cached statement throws that stale error again on
/// its next use (`sqlite3_reset` reports it), which would fail an innocent batch.
final class SQLiteGroupWriter: GroupWriter {
    let pool: DatabasePool
    private let walSync: WALSync
    /// Used inside the write transaction only.
    private let cache = Locked(RollupCache())
    /// SQLite has one writer.
    let concurrentTransactions = 1

    init(pool: DatabasePool) {
        self.pool = pool
        walSync = WALSync(databasePath: pool.path)
    }

    func commit(
        takeGroup: @escaping @Sendable () -> [IngestBatch], takeHealthCounts: @escaping @Sendable () -> HealthCounts
    ) async throws -> [Result<InsertResult, any Error>] {
        do {
            let outcomes = try await pool.writeWithoutTransaction { db in
                try cache.withLock { cache in
                    try Self.commitWithoutSync(db) {
                        var health = HealthCounts()
                        let outcomes = try Self.store(takeGroup(), db, cache: &cache, health: &health)
                        health.merge(takeHealthCounts())
                        try health.write(db)
                        return outcomes
                    }
                }
            }
            cache.withLock { $0.trim() }
            return outcomes
        } catch {
            cache.withLock { $0 = RollupCache() }
            throw error
        }
    }

    /// Forgets every user number, label and segment key the cache remembers: after a
    /// deletion of a user's data, which invalidates those facts. Call inside a write.
    func forgetCommittedFacts() {
        cache.withLock { $0 = RollupCache() }
    }

    func afterDurable(_ body: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        walSync.afterSync(body)
    }

    /// Runs `body` in a transaction committed with `synchronous = NORMAL`: written to the
    /// WAL, not yet synced (see ``WALSync``). Other writes of the connection keep `FULL`.
    private static func commitWithoutSync<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        try db.execute(sql: "PRAGMA synchronous = NORMAL")
        // Setting a pragma to a constant cannot fail once the connection is open.
        defer { try? db.execute(sql: "PRAGMA synchronous = FULL") }
        var result: T?
        try db.inTransaction {
            result = try body()
            return .commit
        }
        return result!
    }

    /// Stores every batch of `group`, each in a savepoint, then the group's rollups; returns
    /// each batch's outcome in order, and adds to `health` the purchase events that carry
    /// no purchase. An event whose id is stored, or was erased with a user's data
    /// (`erased_event`), is a duplicate.
    private static func store(
        _ group: [IngestBatch], _ db: Database, cache: inout RollupCache, health: inout HealthCounts
    ) throws -> [Result<InsertResult, any Error>] {
        var deltas: [AppID: RollupDelta] = [:]
        // The segment properties and purchase event of each app of the group, read once.
        var apps: [AppID: (properties: SegmentProperties, purchaseEvent: String)] = [:]
        let outcomes = group.map { batch in
            Result { () throws -> InsertResult in
                var accepted: [IngestBatch.Row] = []
                try db.inSavepoint {
                    if apps[batch.app] == nil {
                        guard let app = try App.fetch(db, id: batch.app) else { throw TallyStoreError.unknownApp(batch.app) }
                        apps[batch.app] = (app.segmentProperties, app.purchaseEvent)
                    }
                    let insert = try RawStatement(
                        db,
                        sql: """
                            INSERT INTO event (app_id, id, name, timestamp, device_timestamp, user_id, session_id, app_version, platform, properties)
                            SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10
                            WHERE NOT EXISTS (SELECT 1 FROM erased_event WHERE app_id = ?1 AND id = ?2)
                            ON CONFLICT (app_id, id) DO NOTHING
                            """)
                    insert.bind(batch.app.rawValue, at: 1)
                    for row in batch.rows {
                        insert.bind(row.event.id, at: 2)
                        insert.bind(row.event.name, at: 3)
                        insert.bind(row.timestamp, at: 4)
                        insert.bind(row.deviceTimestamp, at: 5)
                        insert.bind(row.event.userID, at: 6)
                        insert.bind(row.event.sessionID, at: 7)
                        insert.bind(row.event.appVersion, at: 8)
                        insert.bind(row.event.platform, at: 9)
                        insert.bind(row.properties, at: 10)
                        try insert.execute()
                        if insert.changes > 0 { accepted.append(row) }
                    }
                    return .commit
                }
                // Only a released savepoint's events reach the rollups.
                return batch.result(accepted: accepted, deltas: &deltas)
            }
        }
        for (app, delta) in deltas {
            try delta.write(
                db, app: app, cache: &cache, segmentProperties: apps[app]?.properties ?? SegmentProperties(), purchaseEvent: apps[app]?.purchaseEvent,
                health: &health)
        }
        return outcomes
    }
}

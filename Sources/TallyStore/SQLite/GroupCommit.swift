import Componentry
import GRDB

/// Commits the batches of concurrent ``EventStore/insert(_:app:)`` calls together: one write
/// transaction, hence one WAL sync, for every batch waiting when the writer becomes free.
///
/// A durable commit waits for the disk (≈ 2.7 ms on the development VM), so one transaction
/// per 100-event batch caps ingest near 15k events/s whatever the CPU does. Here a caller
/// queues its batch and suspends; a single drain task takes the waiting batches in arrival
/// order, stores them in one transaction and resumes each caller with its own result only
/// after that transaction is on disk, so an acknowledgement still means "durable". The disk
/// wait itself happens beside the writer (see ``WALSync``), not in its way.
///
/// - Isolation: each batch runs inside its own savepoint. A batch that throws (unknown app,
///   a constraint, an I/O error on one statement) rolls back only itself and its caller gets
///   the error; the others commit. If the commit itself fails, every caller of the group gets
///   that error and nothing of the group is stored.
/// - Deduplication: batches of one transaction see each other's rows, so an id sent in two
///   batches committed together is stored, and counted as accepted, once.
/// - Rollups: the accepted events of the whole group go into one ``RollupDelta`` per app,
///   written once before the commit, so a rollup row touched by many batches is upserted once.
///   A ``RollupCache`` of what earlier transactions committed spares the user lookups that
///   would change nothing; it is emptied when a transaction fails, since it may then hold facts
///   that were rolled back.
/// - Data health: counts recorded with ``record(_:)`` (see ``HealthCounts``) are written by the
///   next transaction, with its batches or alone, without their callers waiting: ingest gets no
///   extra transaction or disk sync per request. Counts of a failed transaction wait for the next.
/// - Fairness and latency: batches are taken first come, first served, and a transaction takes
///   batches only up to a maximum number of events (at least one batch, however large), so a burst is
///   split over several commits and no caller waits behind an unbounded transaction.
///
/// A caller that is cancelled while its batch is queued still gets its batch stored: a queued
/// batch cannot be withdrawn, because its fate is decided with the others'.
final class GroupCommit: Sendable {
    /// The most events one transaction takes, unless its first batch alone is larger.
    static let defaultMaximumEvents = 5_000

    /// An event with the values its `event` row stores, computed by the caller before it
    /// queues so the writer does only database work.
    private struct Row: Sendable {
        var event: Event
        var timestamp: Int64
        var deviceTimestamp: Int64
        var properties: String

        init(_ event: Event) {
            self.event = event
            timestamp = event.timestamp.unixMilliseconds
            deviceTimestamp = event.deviceTimestamp.unixMilliseconds
            properties = PropertiesJSON.encode(event.properties)
        }
    }

    /// A queued batch and the caller waiting for it.
    private struct Request: Sendable {
        var rows: [Row]
        var app: AppID
        var continuation: CheckedContinuation<InsertResult, any Error>
    }

    private struct Queue {
        /// Batches waiting for a transaction, in arrival order.
        var waiting: [Request] = []
        /// The batches of the transaction being written, resumed when it ends.
        var committing: [Request] = []
        /// Whether a drain task is running; only it clears this, when it finds nothing waiting.
        var draining = false
        /// Data health counts waiting for a transaction.
        var health = HealthCounts()
        /// The data health counts of the transaction being written, put back if it fails.
        var committingHealth = HealthCounts()
    }

    private let pool: DatabasePool
    private let maximumEvents: Int
    private let queue = Locked(Queue())
    private let walSync: WALSync
    /// Used by the drain task only, inside the write transaction.
    private let cache = Locked(RollupCache())

    /// A group commit over `pool` whose transactions take batches up to `maximumEvents` events.
    init(pool: DatabasePool, maximumEvents: Int = defaultMaximumEvents) {
        self.pool = pool
        self.maximumEvents = maximumEvents
        walSync = WALSync(databasePath: pool.path)
    }

    /// The batches waiting for a transaction: the ingest backlog.
    var waitingBatches: Int {
        queue.withLock { $0.waiting.count }
    }

    /// Whether data health counts wait for a transaction or are being written: a reader that
    /// must see them waits for the next transaction (an empty ``insert(_:app:)``).
    var holdsHealthCounts: Bool {
        queue.withLock { !$0.health.isEmpty || !$0.committingHealth.isEmpty }
    }

    /// Adds `counts` to those the next transaction writes, starting one if none is running;
    /// does not wait for it.
    func record(_ counts: HealthCounts) {
        guard !counts.isEmpty else { return }
        let startsDrain = queue.withLock { queue in
            queue.health.merge(counts)
            defer { queue.draining = true }
            return !queue.draining
        }
        if startsDrain { Task { await drain() } }
    }

    /// Queues `events` and returns their result once the transaction holding them is on disk.
    func insert(_ events: [Event], app: AppID) async throws -> InsertResult {
        let rows = events.map(Row.init)
        return try await withCheckedThrowingContinuation { continuation in
            let startsDrain = queue.withLock { queue in
                queue.waiting.append(Request(rows: rows, app: app, continuation: continuation))
                defer { queue.draining = true }
                return !queue.draining
            }
            if startsDrain { Task { await drain() } }
        }
    }

    /// Writes transactions until nothing waits. Each takes its batches once it holds the
    /// writer, so batches that arrived while the previous transaction committed join this one.
    /// A committed group's callers are resumed by ``WALSync`` once the commit is on disk,
    /// while this loop goes on with the next group.
    private func drain() async {
        var committed: Bool
        repeat {
            let outcomes: Result<[Result<InsertResult, any Error>], any Error>
            do {
                outcomes = .success(try await pool.writeWithoutTransaction { db in
                    try self.cache.withLock { cache in
                        try Self.commitWithoutSync(db) {
                            let outcomes = try Self.store(self.takeGroup(), db, cache: &cache)
                            try self.takeHealthCounts().write(db)
                            return outcomes
                        }
                    }
                })
                cache.withLock { $0.trim() }
            } catch {
                outcomes = .failure(error)
                cache.withLock { $0 = RollupCache() }
            }
            var group = queue.withLock { queue in
                // Counts of a failed transaction wait for the next one.
                if case .failure = outcomes { queue.health.merge(queue.committingHealth) }
                queue.committingHealth = HealthCounts()
                return queue.committing
            }
            // After a failure, empty only if the write failed before taking its batches (it
            // could not begin): fail the next group with that error rather than retry it forever.
            if group.isEmpty, case .failure = outcomes { group = takeGroup() }
            queue.withLock { $0.committing = [] }
            let resume = { @Sendable [group] (synced: Result<Void, any Error>) in
                for (index, request) in group.enumerated() {
                    request.continuation.resume(with: synced.flatMap { outcomes }.flatMap { $0[index] })
                }
            }
            committed = (try? outcomes.get()) != nil
            if committed { walSync.afterSync(resume) } else { resume(.success(())) }
        } while queue.withLock { queue in
            // After a failure, counts alone do not start another try: the next call will.
            queue.draining = !queue.waiting.isEmpty || (!queue.health.isEmpty && committed)
            return queue.draining
        }
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

    /// Moves every waiting data health count to the transaction being written, and returns them.
    private func takeHealthCounts() -> HealthCounts {
        queue.withLock { queue in
            queue.committingHealth.merge(queue.health)
            queue.health = HealthCounts()
            return queue.committingHealth
        }
    }

    /// Moves the next group, first come first served and within `maximumEvents` (at least one
    /// batch), from the waiting batches to the committing ones, and returns it.
    private func takeGroup() -> [Request] {
        queue.withLock { queue in
            var count = 0, events = 0
            while count < queue.waiting.count, count == 0 || events + queue.waiting[count].rows.count <= maximumEvents {
                events += queue.waiting[count].rows.count
                count += 1
            }
            queue.committing = Array(queue.waiting.prefix(count))
            queue.waiting.removeFirst(count)
            return queue.committing
        }
    }

    /// Stores every batch of `group`, each in a savepoint, then the group's rollups; returns
    /// each batch's outcome in order.
    ///
    /// Statements are prepared per transaction (per batch for the insert), not taken from
    /// GRDB's statement cache: after a failed step, a cached statement throws that stale error
    /// again on its next use (`sqlite3_reset` reports it), which would fail an innocent batch.
    private static func store(
        _ group: [Request], _ db: Database, cache: inout RollupCache
    ) throws -> [Result<InsertResult, any Error>] {
        var deltas: [AppID: RollupDelta] = [:]
        var knownApps: Set<AppID> = []
        let outcomes = group.map { request in
            Result { () throws -> InsertResult in
                var accepted: [Row] = []
                try db.inSavepoint {
                    if !knownApps.contains(request.app) {
                        guard try App.fetch(db, id: request.app) != nil else { throw TallyStoreError.unknownApp(request.app) }
                        knownApps.insert(request.app)
                    }
                    let insert = try RawStatement(db, sql: """
                        INSERT INTO event (app_id, id, name, timestamp, device_timestamp, user_id, session_id, app_version, platform, properties)
                        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
                        ON CONFLICT (app_id, id) DO NOTHING
                        """)
                    insert.bind(request.app.rawValue, at: 1)
                    for row in request.rows {
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
                var acceptedByName: [String: Int] = [:]
                for row in accepted {
                    deltas[request.app, default: RollupDelta()].add(row.event, timestamp: row.timestamp)
                    acceptedByName[row.event.name, default: 0] += 1
                }
                return InsertResult(
                    accepted: accepted.count, duplicates: request.rows.count - accepted.count, acceptedByName: acceptedByName)
            }
        }
        for (app, delta) in deltas { try delta.write(db, app: app, cache: &cache) }
        return outcomes
    }
}

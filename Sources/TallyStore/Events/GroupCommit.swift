import Componentry
import GRDB

/// Commits the batches of concurrent ``EventStore/insert(_:app:)`` calls together: one write
/// transaction, hence one WAL sync, for every batch waiting when the writer becomes free.
///
/// With `synchronous = FULL` each commit waits for the disk (≈ 2.7 ms on the development VM),
/// so one transaction per 100-event batch caps ingest near 15k events/s whatever the CPU does.
/// Here a caller queues its batch and suspends; a single drain task takes the waiting batches
/// in arrival order, stores them in one transaction and resumes each caller with its own
/// result only after that transaction committed, so an acknowledgement still means "durable".
///
/// - Isolation: each batch runs inside its own savepoint. A batch that throws (unknown app,
///   a constraint, an I/O error on one statement) rolls back only itself and its caller gets
///   the error; the others commit. If the commit itself fails, every caller of the group gets
///   that error and nothing of the group is stored.
/// - Deduplication: batches of one transaction see each other's rows, so an id sent in two
///   batches committed together is stored, and counted as accepted, once.
/// - Rollups: the accepted events of the whole group go into one ``RollupDelta`` per app,
///   written once before the commit, so a rollup row touched by many batches is upserted once.
/// - Fairness and latency: batches are taken first come, first served, and a transaction takes
///   batches only up to a maximum number of events (at least one batch, however large), so a burst is
///   split over several commits and no caller waits behind an unbounded transaction.
///
/// A caller that is cancelled while its batch is queued still gets its batch stored: a queued
/// batch cannot be withdrawn, because its fate is decided with the others'.
final class GroupCommit: Sendable {
    /// The most events one transaction takes, unless its first batch alone is larger.
    static let defaultMaximumEvents = 5_000

    /// A queued batch and the caller waiting for it.
    private struct Request: Sendable {
        var events: [Event]
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
    }

    private let pool: DatabasePool
    private let maximumEvents: Int
    private let queue = Locked(Queue())

    /// A group commit over `pool` whose transactions take batches up to `maximumEvents` events.
    init(pool: DatabasePool, maximumEvents: Int = defaultMaximumEvents) {
        self.pool = pool
        self.maximumEvents = maximumEvents
    }

    /// The batches waiting for a transaction: the ingest backlog.
    var waitingBatches: Int {
        queue.withLock { $0.waiting.count }
    }

    /// Queues `events` and returns their result once the transaction holding them committed.
    func insert(_ events: [Event], app: AppID) async throws -> InsertResult {
        try await withCheckedThrowingContinuation { continuation in
            let startsDrain = queue.withLock { queue in
                queue.waiting.append(Request(events: events, app: app, continuation: continuation))
                defer { queue.draining = true }
                return !queue.draining
            }
            if startsDrain { Task { await drain() } }
        }
    }

    /// Writes transactions until nothing waits. Each takes its batches once it holds the
    /// writer, so batches that arrived while the previous transaction synced join this one.
    private func drain() async {
        repeat {
            let outcomes: Result<[Result<InsertResult, any Error>], any Error>
            do {
                outcomes = .success(try await pool.write { db in try Self.store(self.takeGroup(), db) })
            } catch {
                outcomes = .failure(error)
            }
            var group = queue.withLock { $0.committing }
            // Empty only if the write failed before taking its batches (it could not begin):
            // fail the next group with that error rather than retry it forever.
            if group.isEmpty { group = takeGroup() }
            queue.withLock { $0.committing = [] }
            for (index, request) in group.enumerated() {
                request.continuation.resume(with: outcomes.flatMap { $0[index] })
            }
        } while queue.withLock { queue in
            queue.draining = !queue.waiting.isEmpty
            return queue.draining
        }
    }

    /// Moves the next group, first come first served and within `maximumEvents` (at least one
    /// batch), from the waiting batches to the committing ones, and returns it.
    private func takeGroup() -> [Request] {
        queue.withLock { queue in
            var count = 0, events = 0
            while count < queue.waiting.count, count == 0 || events + queue.waiting[count].events.count <= maximumEvents {
                events += queue.waiting[count].events.count
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
    private static func store(_ group: [Request], _ db: Database) throws -> [Result<InsertResult, any Error>] {
        var deltas: [AppID: RollupDelta] = [:]
        var knownApps: Set<AppID> = []
        let outcomes = group.map { request in
            Result { () throws -> InsertResult in
                var accepted: [(event: Event, timestamp: Int64)] = []
                try db.inSavepoint {
                    if !knownApps.contains(request.app) {
                        guard try App.fetch(db, id: request.app) != nil else { throw TallyStoreError.unknownApp(request.app) }
                        knownApps.insert(request.app)
                    }
                    let insert = try db.makeStatement(sql: """
                        INSERT INTO event (app_id, id, name, timestamp, device_timestamp, user_id, session_id, app_version, platform, properties)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (app_id, id) DO NOTHING
                        """)
                    for event in request.events {
                        let timestamp = event.timestamp.unixMilliseconds
                        try insert.execute(arguments: [
                            request.app.rawValue, event.id.uuidString, event.name, timestamp,
                            event.deviceTimestamp.unixMilliseconds, event.userID, event.sessionID, event.appVersion,
                            event.platform, PropertiesJSON.encode(event.properties),
                        ])
                        if db.changesCount > 0 { accepted.append((event, timestamp)) }
                    }
                    return .commit
                }
                // Only a released savepoint's events reach the rollups.
                for (event, timestamp) in accepted { deltas[request.app, default: RollupDelta()].add(event, timestamp: timestamp) }
                return InsertResult(accepted: accepted.count, duplicates: request.events.count - accepted.count)
            }
        }
        for (app, delta) in deltas { try delta.write(db, app: app) }
        return outcomes
    }
}

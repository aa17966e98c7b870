import Locking
import Metrics
import TallyEvent

/// Commits the batches of concurrent ``EventLog/insert(_:app:)`` calls together: one write
/// transaction, hence one WAL sync, for every batch waiting when the writer becomes free.
///
/// A durable commit waits for the disk (≈ 2.7 ms on the development VM), so one transaction
/// per 100-event batch caps ingest near 15k events/s whatever the CPU does. Here a caller
/// queues its batch and suspends; a drain task takes the waiting batches in arrival order,
/// stores them in one transaction through its `Writer` (see ``GroupWriter``) and resumes each
/// caller with its own result only after that transaction is durable, so an acknowledgement
/// still means "durable". On SQLite a single drain task writes, and the disk wait itself
/// happens beside the writer (see ``WALSync``), not in its way. On PostgreSQL two drain tasks
/// write at once (see ``GroupWriter/concurrentTransactions``), so one transaction's round trips
/// and commit overlap the other's work.
///
/// - Isolation: each batch runs inside its own savepoint. A batch that throws (unknown app,
///   a constraint, an I/O error on one statement) rolls back only itself and its caller gets
///   the error; the others commit. If the commit itself fails, every caller of the group gets
///   that error and nothing of the group is stored.
/// - Deduplication: batches of one transaction see each other's rows, so an id sent in two
///   batches committed together is stored, and counted as accepted, once. Of two transactions
///   in flight at once, the database's unique key decides: the later one waits for the
///   earlier one's key and finds it stored, or rolled back.
/// - Rollups: the accepted events of the whole group go into one ``RollupDelta`` per app,
///   written once before the commit, so a rollup row touched by many batches is upserted once.
///   The writer's ``RollupCache`` of what earlier transactions committed spares the user
///   lookups that would change nothing; it is emptied when a transaction fails, since it may
///   then hold facts that were rolled back.
/// - Data health: counts recorded with ``record(_:)`` (see ``HealthCounts``) are written by the
///   next transaction, with its batches or alone, without their callers waiting: ingest gets no
///   extra transaction or disk sync per request. Counts of a failed transaction wait for the next.
/// - Fairness and latency: batches are taken first come, first served, and a transaction takes
///   batches only up to a maximum number of events (at least one batch, however large), so a burst is
///   split over several commits and no caller waits behind an unbounded transaction.
///
/// A caller that is cancelled while its batch is queued still gets its batch stored: a queued
/// batch cannot be withdrawn, because its fate is decided with the others'.
final class GroupCommit<Writer: GroupWriter>: Sendable {
    /// A queued batch and the caller waiting for it.
    private struct Request: Sendable {
        var batch: IngestBatch
        var continuation: CheckedContinuation<InsertResult, any Error>
    }

    private struct Queue {
        /// Batches waiting for a transaction, in arrival order.
        var waiting: [Request] = []
        /// The batches of each transaction being written, by transaction number, resumed
        /// when it ends.
        var committing: [Int: [Request]] = [:]
        /// The number of the next transaction.
        var nextTransaction = 0
        /// How many drain tasks are running; each writes one transaction at a time, and only
        /// a drain task lowers this, when it finds nothing waiting.
        var drains = 0
        /// Data health counts waiting for a transaction.
        var health = HealthCounts()
        /// The data health counts of each transaction being written, put back if it fails.
        var committingHealth: [Int: HealthCounts] = [:]
    }

    let writer: Writer
    private let maximumEvents: Int
    private let queue = Locked(Queue())
    /// The batches and events of each committed transaction (see ``StoreTelemetry``).
    private let committedBatches = Recorder(label: StoreTelemetry.groupCommitBatches)
    private let committedEvents = Recorder(label: StoreTelemetry.groupCommitEvents)

    /// A group commit through `writer` whose transactions take batches up to `maximumEvents` events.
    init(writer: Writer, maximumEvents: Int = GroupCommitDefaults.maximumEvents) {
        self.writer = writer
        self.maximumEvents = maximumEvents
    }

    /// The batches waiting for a transaction: the ingest backlog.
    var waitingBatches: Int {
        queue.withLock { $0.waiting.count }
    }

    /// Whether data health counts wait for a transaction or are being written: a reader that
    /// must see them waits for the next transaction (an empty ``insert(_:app:)``).
    var holdsHealthCounts: Bool {
        queue.withLock { queue in !queue.health.isEmpty || queue.committingHealth.values.contains { !$0.isEmpty } }
    }

    /// Adds `counts` to those the next transaction writes, starting one if none is running;
    /// does not wait for it.
    func record(_ counts: HealthCounts) {
        guard !counts.isEmpty else { return }
        let startsDrain = queue.withLock { queue in
            queue.health.merge(counts)
            return addsDrain(&queue)
        }
        if startsDrain { Task { await drain() } }
    }

    /// Queues `events` and returns their result once the transaction holding them is durable.
    func insert(_ events: [Event], app: AppID) async throws -> InsertResult {
        let batch = IngestBatch(rows: events.map(IngestBatch.Row.init), app: app)
        return try await withCheckedThrowingContinuation { continuation in
            let startsDrain = queue.withLock { queue in
                queue.waiting.append(Request(batch: batch, continuation: continuation))
                return addsDrain(&queue)
            }
            if startsDrain { Task { await drain() } }
        }
    }

    /// Counts a new drain task if fewer than the writer's
    /// ``GroupWriter/concurrentTransactions`` run; the caller then starts it.
    private func addsDrain(_ queue: inout Queue) -> Bool {
        guard queue.drains < writer.concurrentTransactions else { return false }
        queue.drains += 1
        return true
    }

    /// Writes transactions until nothing waits. Each takes its batches once it holds a
    /// connection, so batches that arrived while the previous transaction committed join this
    /// one. A committed group's callers are resumed once the commit is durable (see
    /// ``GroupWriter/afterDurable(_:)``), while this loop may go on with the next group.
    private func drain() async {
        var committed = true
        while let transaction = nextTransaction(afterCommitting: committed) {
            let outcomes: Result<[Result<InsertResult, any Error>], any Error>
            do {
                outcomes = .success(
                    try await writer.commit(
                        takeGroup: { self.takeRequests(for: transaction).map(\.batch) },
                        takeHealthCounts: { self.takeHealthCounts(for: transaction) }))
            } catch {
                outcomes = .failure(error)
            }
            var group = queue.withLock { queue in
                // Counts of a failed transaction wait for the next one.
                let health = queue.committingHealth.removeValue(forKey: transaction)
                if case .failure = outcomes, let health { queue.health.merge(health) }
                return queue.committing.removeValue(forKey: transaction) ?? []
            }
            // After a failure, empty only if the write failed before taking its batches (it
            // could not begin): fail the next group with that error rather than retry it forever.
            if group.isEmpty, case .failure = outcomes {
                group = takeRequests(for: transaction)
                queue.withLock { _ = $0.committing.removeValue(forKey: transaction) }
            }
            let resume = { @Sendable [group] (durable: Result<Void, any Error>) in
                for (index, request) in group.enumerated() {
                    request.continuation.resume(with: durable.flatMap { outcomes }.flatMap { $0[index] })
                }
            }
            committed = (try? outcomes.get()) != nil
            if committed, !group.isEmpty {
                committedBatches.record(group.count)
                committedEvents.record(group.reduce(0) { $0 + $1.batch.rows.count })
            }
            if committed { writer.afterDurable(resume) } else { resume(.success(())) }
        }
    }

    /// The number of the drain task's next transaction, or `nil` when nothing waits for one:
    /// then the task ends. After a failure, waiting data health counts alone do not start
    /// another try: the next call will.
    private func nextTransaction(afterCommitting committed: Bool) -> Int? {
        queue.withLock { queue in
            guard !queue.waiting.isEmpty || (!queue.health.isEmpty && committed) else {
                queue.drains -= 1
                return nil
            }
            defer { queue.nextTransaction &+= 1 }
            return queue.nextTransaction
        }
    }

    /// Moves every waiting data health count to `transaction`, and returns its counts.
    private func takeHealthCounts(for transaction: Int) -> HealthCounts {
        queue.withLock { queue in
            queue.committingHealth[transaction, default: HealthCounts()].merge(queue.health)
            queue.health = HealthCounts()
            return queue.committingHealth[transaction] ?? HealthCounts()
        }
    }

    /// Moves the next group, first come first served and within `maximumEvents` (at least one
    /// batch), from the waiting batches to those of `transaction`, and returns it.
    private func takeRequests(for transaction: Int) -> [Request] {
        queue.withLock { queue in
            var count = 0
            var events = 0
            while count < queue.waiting.count, count == 0 || events + queue.waiting[count].batch.rows.count <= maximumEvents {
                events += queue.waiting[count].batch.rows.count
                count += 1
            }
            let group = Array(queue.waiting.prefix(count))
            queue.waiting.removeFirst(count)
            queue.committing[transaction] = group
            return group
        }
    }
}

/// The settings every ``GroupCommit`` shares.
enum GroupCommitDefaults {
    /// The most events one transaction takes, unless its first batch alone is larger.
    static let maximumEvents = 5_000
}

import Locking
import Metrics

/// Commits the batches of concurrent ``EventStore/insert(_:app:)`` calls together: one write
/// transaction, hence one WAL sync, for every batch waiting when the writer becomes free.
///
/// A durable commit waits for the disk (≈ 2.7 ms on the development VM), so one transaction
/// per 100-event batch caps ingest near 15k events/s whatever the CPU does. Here a caller
/// queues its batch and suspends; a single drain task takes the waiting batches in arrival
/// order, stores them in one transaction through its `Writer` (see ``GroupWriter``) and
/// resumes each caller with its own result only after that transaction is durable, so an
/// acknowledgement still means "durable". On SQLite the disk wait itself happens beside the
/// writer (see ``WALSync``), not in its way.
///
/// - Isolation: each batch runs inside its own savepoint. A batch that throws (unknown app,
///   a constraint, an I/O error on one statement) rolls back only itself and its caller gets
///   the error; the others commit. If the commit itself fails, every caller of the group gets
///   that error and nothing of the group is stored.
/// - Deduplication: batches of one transaction see each other's rows, so an id sent in two
///   batches committed together is stored, and counted as accepted, once.
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
        /// The batches of the transaction being written, resumed when it ends.
        var committing: [Request] = []
        /// Whether a drain task is running; only it clears this, when it finds nothing waiting.
        var draining = false
        /// Data health counts waiting for a transaction.
        var health = HealthCounts()
        /// The data health counts of the transaction being written, put back if it fails.
        var committingHealth = HealthCounts()
    }

    let writer: Writer
    private let maximumEvents: Int
    private let queue = Locked(Queue())
    /// The batches and events of each committed transaction (see ``StoreMetrics``).
    private let committedBatches = Recorder(label: StoreMetrics.groupCommitBatches)
    private let committedEvents = Recorder(label: StoreMetrics.groupCommitEvents)

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

    /// Queues `events` and returns their result once the transaction holding them is durable.
    func insert(_ events: [Event], app: AppID) async throws -> InsertResult {
        let batch = IngestBatch(rows: events.map(IngestBatch.Row.init), app: app)
        return try await withCheckedThrowingContinuation { continuation in
            let startsDrain = queue.withLock { queue in
                queue.waiting.append(Request(batch: batch, continuation: continuation))
                defer { queue.draining = true }
                return !queue.draining
            }
            if startsDrain { Task { await drain() } }
        }
    }

    /// Writes transactions until nothing waits. Each takes its batches once it holds the
    /// writer, so batches that arrived while the previous transaction committed join this one.
    /// A committed group's callers are resumed once the commit is durable (see
    /// ``GroupWriter/afterDurable(_:)``), while this loop may go on with the next group.
    private func drain() async {
        var committed: Bool
        repeat {
            let outcomes: Result<[Result<InsertResult, any Error>], any Error>
            do {
                outcomes = .success(try await writer.commit(takeGroup: takeGroup, takeHealthCounts: takeHealthCounts))
            } catch {
                outcomes = .failure(error)
            }
            var group = queue.withLock { queue in
                // Counts of a failed transaction wait for the next one.
                if case .failure = outcomes { queue.health.merge(queue.committingHealth) }
                queue.committingHealth = HealthCounts()
                return queue.committing
            }
            // After a failure, empty only if the write failed before taking its batches (it
            // could not begin): fail the next group with that error rather than retry it forever.
            if group.isEmpty, case .failure = outcomes { group = takeRequests() }
            queue.withLock { $0.committing = [] }
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
        } while queue.withLock { queue in
            // After a failure, counts alone do not start another try: the next call will.
            queue.draining = !queue.waiting.isEmpty || (!queue.health.isEmpty && committed)
            return queue.draining
        }
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
    /// batch), from the waiting batches to the committing ones, and returns their batches.
    private func takeGroup() -> [IngestBatch] {
        takeRequests().map(\.batch)
    }

    /// Moves the next group to the committing batches, as ``takeGroup()`` does, and returns it.
    private func takeRequests() -> [Request] {
        queue.withLock { queue in
            var count = 0
            var events = 0
            while count < queue.waiting.count, count == 0 || events + queue.waiting[count].batch.rows.count <= maximumEvents {
                events += queue.waiting[count].batch.rows.count
                count += 1
            }
            queue.committing = Array(queue.waiting.prefix(count))
            queue.waiting.removeFirst(count)
            return queue.committing
        }
    }
}

/// The settings every ``GroupCommit`` shares.
enum GroupCommitDefaults {
    /// The most events one transaction takes, unless its first batch alone is larger.
    static let maximumEvents = 5_000
}

import Dispatch
import Foundation
import GRDB
import SeededRandom
import TallyEvent
import TallyStoreTesting
import Testing

@testable import TallyStore

@Suite struct GroupCommitTests {
    /// Many tasks insert overlapping batches into three apps at once (ids shared across and
    /// within batches, and across apps) and record their data health counts: on PostgreSQL,
    /// two transactions are in flight, writing keys, rollups and counts of the same rows.
    @Test(arguments: TestDatabase.all) func concurrentOverlappingBatchesStoreTheUnionOnce(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        var apps: [AppID] = []
        for name in ["A", "B", "C"] { apps.append(try await store.apps.create(name: name).app.id) }
        var random = SplitMix64(seed: 3)
        let pool = (0..<1_500).map { i in
            event(at: instant("2026-03-01T00:00:00Z").addingTimeInterval(Double(i) * 7), user: "u\(i % 37)")
        }
        let batches = (0..<300).map { _ in
            (
                events: (0..<Int.random(in: 1...60, using: &random)).map { _ in pool.randomElement(using: &random)! },
                app: apps.randomElement(using: &random)!
            )
        }

        let results = try await withThrowingTaskGroup(of: (Int, InsertResult).self) { group in
            for (index, batch) in batches.enumerated() {
                group.addTask {
                    // As the server does: data health counts, in several buckets of the day.
                    let result = try await store.events.insert(batch.events, app: batch.app)
                    try await store.events.recordIngest(
                        app: batch.app, at: instant("2026-03-01T00:00:00Z").addingTimeInterval(Double(index % 8) * 900),
                        accepted: result.accepted, duplicates: result.duplicates)
                    return (index, result)
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }

        for (index, batch) in batches.enumerated() {
            #expect(results[index]!.accepted + results[index]!.duplicates == batch.events.count)
        }
        for app in apps {
            let sent = batches.filter { $0.app == app }.flatMap(\.events)
            let union = Set(sent.map(\.id))
            let accepted = batches.indices.filter { batches[$0].app == app }.reduce(0) { $0 + results[$1]!.accepted }
            #expect(accepted == union.count)
            var stored: [UUID] = []
            for try await event in store.events.export(app: app, from: .distantPast, to: .distantFuture) { stored.append(event.id) }
            #expect(stored.count == union.count && Set(stored) == union)
            // Every pooled event falls on 2026-03-01: the rollups count each stored id once.
            let metrics = try await store.metrics.day(ReadScope(app: app, day: CalendarDay("2026-03-01")!))
            #expect(metrics.events == ["open": union.count])
            #expect(metrics.dau == Set(sent.map(\.userID)).count)
            let health = try await store.metrics.dataHealth(
                ReadScope(app: app, day: CalendarDay("2026-03-01")!, timeZone: TimeZone(identifier: "UTC")))
            #expect((health.accepted, health.duplicates) == (union.count, sent.count - union.count))
        }
    }

    /// Batches queued while the writer is busy share one transaction; the failing ones roll
    /// back alone and throw to their own callers.
    @Test func aFailingBatchRollsBackOnlyItself() async throws {
        let store = try makeStore()
        let app = try await store.apps.create(name: "Demo").app.id
        try await store.pool.write { db in
            try db.execute(
                sql: """
                    CREATE TRIGGER poison BEFORE INSERT ON event WHEN NEW.name = 'poison'
                    BEGIN SELECT RAISE(ABORT, 'poisoned'); END
                    """)
        }
        let commits = try await store.pool.write(CommitCounter.init)
        let at = instant("2026-03-01T10:00:00Z")
        let first = (0..<3).map { _ in event(at: at) }
        let failing = [event(at: at), event(at: at), event(name: "poison", at: at)]
        let last = [first[0], event(at: at)]

        let groupCommit = GroupCommit(writer: SQLiteGroupWriter(pool: store.pool))
        let results = try await whileWriterIsBusy(store, until: { groupCommit.waitingBatches == 4 }) {
            [
                Task { try await groupCommit.insert(first, app: app) },
                Task { try await groupCommit.insert(failing, app: app) },
                Task { try await groupCommit.insert([event(at: at)], app: AppID(rawValue: 99)) },
                Task { try await groupCommit.insert(last, app: app) },
            ]
        }

        #expect(try await results[0].value == InsertResult(accepted: 3, duplicates: 0))
        await #expect(throws: DatabaseError.self) { try await results[1].value }
        await #expect(throws: TallyStoreError.unknownApp(AppID(rawValue: 99))) { try await results[2].value }
        #expect(try await results[3].value == InsertResult(accepted: 1, duplicates: 1))
        let (stored, commitCount) = try await store.pool.write { db in
            (try storedEventIDs(db), commits.count)
        }
        #expect(stored == Set((first + last).map(\.id)))
        #expect(commitCount == 1)
        #expect(try await store.metrics.day(ReadScope(app: app, day: CalendarDay("2026-03-01")!)).events == ["open": 4])
    }

    /// A transaction that fails after writing rollups must not leave the writer believing
    /// those rows exist: the retried batch writes them again and is counted in full.
    @Test func aFailedTransactionLeavesNoRollupFactsBehind() async throws {
        let store = try makeStore()
        let app = try await store.apps.create(name: "Demo").app.id
        try await store.pool.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE failing (on_chunk INTEGER NOT NULL);
                    INSERT INTO failing VALUES (1);
                    CREATE TRIGGER fail_day BEFORE INSERT ON day_users WHEN (SELECT on_chunk FROM failing) = 1
                    BEGIN SELECT RAISE(ABORT, 'failing rollup'); END
                    """)
        }
        // Seen earlier, so the failing transaction also lowers a cached first_seen.
        try await store.pool.write { db in try db.execute(sql: "UPDATE failing SET on_chunk = 0") }
        try await store.events.insert([event(at: instant("2026-03-02T10:00:00Z"), user: "known")], app: app)
        try await store.pool.write { db in try db.execute(sql: "UPDATE failing SET on_chunk = 1") }

        let batch = [
            event(at: instant("2026-03-01T10:00:00Z"), user: "new"),
            event(at: instant("2026-03-01T11:00:00Z"), user: "known"),
        ]
        await #expect(throws: DatabaseError.self) { try await store.events.insert(batch, app: app) }
        try await store.pool.write { db in try db.execute(sql: "UPDATE failing SET on_chunk = 0") }
        #expect(try await store.events.insert(batch, app: app) == InsertResult(accepted: 2, duplicates: 0))

        let metrics = try await store.metrics.day(ReadScope(app: app, day: CalendarDay("2026-03-01")!))
        #expect(metrics.dau == 2)
        #expect(metrics.mau == 2)
        #expect(metrics.newUsers == 2)
        #expect(metrics.perUser["open"] == PerUserStats(average: 1, maximum: 1))
    }

    /// A transaction takes waiting batches in arrival order up to the event cap, and a batch
    /// larger than the cap alone.
    @Test func transactionsTakeBatchesInOrderUpToTheCap() async throws {
        let store = try makeStore()
        let app = try await store.apps.create(name: "Demo").app.id
        let commits = try await store.pool.write(CommitCounter.init)
        let at = instant("2026-03-01T10:00:00Z")
        // With a cap of 10: [4, 4] [12] [3, 3, 3] [5].
        let sizes = [4, 4, 12, 3, 3, 3, 5]

        let groupCommit = GroupCommit(writer: SQLiteGroupWriter(pool: store.pool), maximumEvents: 10)
        let tasks = try await whileWriterIsBusy(store, until: { groupCommit.waitingBatches == sizes.count }) {
            // One at a time: tasks started together may reach the queue in any order.
            var tasks: [Task<InsertResult, any Error>] = []
            for size in sizes {
                tasks.append(Task { try await groupCommit.insert((0..<size).map { _ in event(at: at) }, app: app) })
                while groupCommit.waitingBatches < tasks.count { await Task.yield() }
            }
            return tasks
        }

        for (task, size) in zip(tasks, sizes) {
            #expect(try await task.value == InsertResult(accepted: size, duplicates: 0))
        }
        #expect(try await store.pool.write { _ in commits.count } == 4)
    }

    /// Holds the store's writer while `submit` starts tasks, releases it once `ready` holds,
    /// and returns the tasks.
    private func whileWriterIsBusy<T: Sendable>(
        _ store: EventStore, until ready: () -> Bool, _ submit: () async -> [Task<T, any Error>]
    ) async throws -> [Task<T, any Error>] {
        let release = DispatchSemaphore(value: 0)
        let (entered, enteredContinuation) = AsyncStream<Void>.makeStream()
        let writer = Task {
            try await store.pool.write { _ in
                enteredContinuation.yield()
                release.wait()
            }
        }
        for await _ in entered { break }
        let tasks = await submit()
        while !ready() { await Task.yield() }
        release.signal()
        try await writer.value
        return tasks
    }
}

/// Counts committed transactions that changed rows. Read it only on the writer (inside
/// `pool.write`), where GRDB calls the observer, so the count needs no lock.
private final class CommitCounter: TransactionObserver, @unchecked Sendable {
    var count = 0
    private var changes: Int

    /// Starts counting the commits of `db` from now on.
    init(_ db: Database) {
        changes = db.totalChangesCount
        db.add(transactionObserver: self, extent: .databaseLifetime)
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
    func databaseDidChange(with event: DatabaseEvent) {}
    /// Counts the commits that changed rows, whichever API executed the statements.
    func databaseDidCommit(_ db: Database) {
        if db.totalChangesCount > changes { count += 1 }
        changes = db.totalChangesCount
    }
    func databaseDidRollback(_ db: Database) { changes = db.totalChangesCount }
}

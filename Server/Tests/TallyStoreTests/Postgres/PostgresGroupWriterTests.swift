import Foundation
import PostgresNIO
import TallyEvent
import TallyStoreTesting
import Testing

@testable import TallyStore

/// The PostgreSQL writer stores a group's batches together, and still rolls back a failing
/// batch alone.
@Suite(.timeLimit(.minutes(5))) struct PostgresGroupWriterTests {
    let at = instant("2026-03-01T10:00:00Z")

    /// A group's batches go in together, with no savepoint of their own, so their rows share
    /// one transaction id.
    @Test func aGroupIsStoredTogether() async throws {
        guard let (store, app) = try await Self.store() else { return }
        let first = (0..<3).map { _ in event(at: at) }
        let second = [first[0], event(at: at)]
        let results = try await Self.oneGroup(store, [(first, app), (second, app)])

        #expect(try await results[0].value == InsertResult(accepted: 3, duplicates: 0))
        #expect(try await results[1].value == InsertResult(accepted: 1, duplicates: 1))
        let writers = try await store.postgres.rows(
            """
            SELECT count(DISTINCT xmin::text) FROM event WHERE id = ANY(\((first + second).map(\.id)))
            """, as: Int.self)
        #expect(writers == [1])
        #expect(try await store.metrics.day(ReadScope(app: app, day: CalendarDay("2026-03-01")!)).events == ["open": 4])
    }

    /// Once a group's batches fail together, its transaction is retried with each under a
    /// savepoint of its own, so only the failing one is lost.
    @Test func aFailingBatchOfAGroupRollsBackOnlyItself() async throws {
        guard let (store, app) = try await Self.store() else { return }
        try await store.postgres.execute(
            """
            CREATE FUNCTION poison() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN IF NEW.name = 'poison' THEN RAISE EXCEPTION 'poisoned'; END IF; RETURN NEW; END $$
            """)
        try await store.postgres.execute("CREATE TRIGGER poison BEFORE INSERT ON event FOR EACH ROW EXECUTE FUNCTION poison()")
        let first = (0..<3).map { _ in event(at: at) }
        let failing = [event(at: at), event(at: at), event(name: "poison", at: at)]
        let last = [first[0], event(at: at)]
        let results = try await Self.oneGroup(
            store, [(first, app), (failing, app), ([event(at: at)], AppID(rawValue: 99)), (last, app)])

        #expect(try await results[0].value == InsertResult(accepted: 3, duplicates: 0))
        await #expect(throws: PSQLError.self) { try await results[1].value }
        await #expect(throws: TallyStoreError.unknownApp(AppID(rawValue: 99))) { try await results[2].value }
        #expect(try await results[3].value == InsertResult(accepted: 1, duplicates: 1))
        let stored = Set(try await store.postgres.rows("SELECT id FROM event", as: UUID.self).map { (id: UUID) in id })
        #expect(stored.isSuperset(of: (first + last).map(\.id)))
        #expect(stored.isDisjoint(with: failing.map(\.id)))
        #expect(stored.count == 4 + store.postgres.groupCommit.writer.concurrentTransactions, "with the blocking transactions' events")
        #expect(try await store.metrics.day(ReadScope(app: app, day: CalendarDay("2026-03-01")!)).events == ["open": 4])
    }

    /// Two transactions in flight insert the same two ids, listed in opposite orders. A
    /// trigger holds each transaction before its second key until both wait, then lets them
    /// go: they wait for each other's keys only in one order, so neither is aborted as a
    /// deadlock, and each id is stored once.
    @Test func transactionsInFlightNeverWaitForEachOtherInACycle() async throws {
        guard let (store, app) = try await Self.store() else { return }
        let backend = store.postgres
        let gate: Int64 = 7
        try await backend.execute(
            PostgresQuery(
                unsafeSQL: """
                    CREATE FUNCTION gate() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN
                        IF current_setting('tally.gate', true) = 'passed' THEN
                            PERFORM pg_advisory_lock_shared(\(gate)); PERFORM pg_advisory_unlock_shared(\(gate));
                        ELSE
                            PERFORM set_config('tally.gate', 'passed', true);
                        END IF;
                        RETURN NEW;
                    END $$
                    """))
        try await backend.execute("CREATE TRIGGER gate BEFORE INSERT ON event_key FOR EACH ROW EXECUTE FUNCTION gate()")
        let (open, closed) = await Self.holdLock(gate, on: backend)
        let (first, second) = (event(at: at), event(at: at))
        let one = Task { try await backend.groupCommit.insert([first, second], app: app) }
        while try await Self.waitingLocks(backend) < 1 { try await Task.sleep(for: .milliseconds(10)) }
        let other = Task { try await backend.groupCommit.insert([second, first], app: app) }
        // The other waits at the gate too, or for the first one's key.
        while try await Self.waitingLocks(backend) < 2 { try await Task.sleep(for: .milliseconds(10)) }
        open()
        try await closed.value

        let results = [try await one.value, try await other.value]
        #expect(results.map(\.accepted).sorted() == [0, 2])
        #expect(try await store.metrics.day(ReadScope(app: app, day: CalendarDay("2026-03-01")!)).events == ["open": 2])
    }

    /// Takes the advisory lock `key` on a connection of its own, and returns once it holds it:
    /// `release` lets it go, and `holder` ends once it has (or throws why it could not hold it).
    static func holdLock(
        _ key: Int64, on backend: PostgresBackend
    ) async -> (release: @Sendable () -> Void, holder: Task<Void, any Error>) {
        let (locked, lockedContinuation) = AsyncStream.makeStream(of: Void.self)
        let (release, releaseContinuation) = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            defer { lockedContinuation.finish() }
            try await backend.client.withConnection { connection in
                try await connection.query("SELECT pg_advisory_lock(\(key))", logger: backend.logger)
                lockedContinuation.yield()
                for await _ in release { break }
                try await connection.query("SELECT pg_advisory_unlock(\(key))", logger: backend.logger)
            }
        }
        for await _ in locked { break }
        return ({ releaseContinuation.yield() }, holder)
    }

    /// How many locks sessions on the store's database wait for.
    static func waitingLocks(_ backend: PostgresBackend) async throws -> Int {
        try await backend.rows(
            """
            SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE NOT l.granted AND a.datname = current_database()
            """, as: Int.self)[0]
    }

    /// A store on a new PostgreSQL database with one app, if there is a test server.
    static func store() async throws -> (EventStore, AppID)? {
        guard let server = TestDatabase.postgresURL else {
            #expect(TestDatabase.all == [.sqlite], "CI=true requires TALLY_TEST_POSTGRES_URL")
            return nil
        }
        let store = try await EventStore(database: try await TestDatabase.createDatabase(on: server))
        return (store, try await store.apps.create(name: "Demo").app.id)
    }

    /// Inserts `batches` in one transaction of `store`'s group commit, and returns their tasks.
    ///
    /// A connection holds the first batch's app's advisory lock until as many transactions as
    /// the group commit writes at once wait for it, and the batches are queued behind those,
    /// in order, so they share the next.
    static func oneGroup(_ store: EventStore, _ batches: [([Event], AppID)]) async throws -> [Task<InsertResult, any Error>] {
        let backend = store.postgres
        let groupCommit = backend.groupCommit
        let (release, holder) = await holdLock(PostgresGroupWriter.appLockSpace | batches[0].1.rawValue, on: backend)
        let transactions = groupCommit.writer.concurrentTransactions
        var blockers: [Task<InsertResult, any Error>] = []
        for _ in 0..<transactions {
            blockers.append(Task { try await groupCommit.insert([event(at: .now)], app: batches[0].1) })
            while try await waitingLocks(backend) < blockers.count { try await Task.sleep(for: .milliseconds(10)) }
        }
        var tasks: [Task<InsertResult, any Error>] = []
        for (events, app) in batches {
            tasks.append(Task { try await groupCommit.insert(events, app: app) })
            while groupCommit.waitingBatches < tasks.count { await Task.yield() }
        }
        release()
        try await holder.value
        for blocker in blockers { _ = try await blocker.value }
        return tasks
    }
}

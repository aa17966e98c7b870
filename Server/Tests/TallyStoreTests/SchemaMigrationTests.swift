import Foundation
import GRDB
import PostgresNIO
import TallyEvent
import TallyStoreTesting
import Testing

@testable import TallyStore

/// Opening a database of an earlier schema rebuilds the rollups from its raw events.
@Suite struct SchemaMigrationTests {
    /// A database left after migration "dashboard-and-health" (before per-app user numbers and user sets, and before
    /// segments) with the raw events of a random store answers, once opened, exactly as the
    /// store that ingested them: every metric, filtered metrics and funnels.
    @Test func rollupsRebuiltFromRawEventsMatchIngestedOnes() async throws {
        let (ingested, app, events, timeZone) = try await MetricsPropertyTests.randomStore(seed: 3, on: .sqlite)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("TallyStoreTests/\(UUID().uuidString).sqlite").path
        let source = try await ingested.pool.read { db in try String.fetchOne(db, sql: "SELECT file FROM pragma_database_list WHERE name = 'main'")! }
        do {
            let old = try DatabaseQueue(path: path)
            try Migration.sqliteMigrator.migrate(old, upTo: "dashboard-and-health")
            try old.inDatabase { db in
                try db.execute(sql: "ATTACH DATABASE ? AS ingested", arguments: [source])
                try db.execute(
                    sql: """
                        INSERT INTO app (id, name, time_zone, accepted_event_age, ingest_key_hash, read_token_hash, created_at)
                        SELECT id, name, time_zone, accepted_event_age, ingest_key_hash, read_token_hash, created_at FROM ingested.app;
                        INSERT INTO event SELECT * FROM ingested.event
                        """)
                try db.execute(sql: "DETACH DATABASE ingested")
            }
        }
        let upgraded = try EventStore(path: path)

        let oracle = MetricsOracle(events: events, timeZone: timeZone)
        let first = oracle.day(of: Date(unixMilliseconds: MetricsPropertyTests.start))
        for offset in -1...41 {
            let date = oracle.day(first, offset: offset)
            let metrics = try await upgraded.metrics.day(ReadScope(app: app, day: CalendarDay(date)!, timeZone: TimeZone(identifier: timeZone)))
            #expect(
                metrics == (try await ingested.metrics.day(ReadScope(app: app, day: CalendarDay(date)!, timeZone: TimeZone(identifier: timeZone)))),
                "\(date)")
            #expect(metrics.dau == oracle.metrics(date: date, timeZone: timeZone).dau)
            let filter = SegmentFilter([.is("app_version", "2.0")])
            #expect(
                try await upgraded.metrics.day(ReadScope(app: app, day: CalendarDay(date)!, timeZone: TimeZone(identifier: timeZone), filter: filter))
                    == (try await ingested.metrics.day(
                        ReadScope(app: app, day: CalendarDay(date)!, timeZone: TimeZone(identifier: timeZone), filter: filter))),
                "\(date)")
        }
        let (from, to) = (oracle.day(first, offset: 0), oracle.day(first, offset: 40))
        #expect(
            try await upgraded.metrics.retention(
                ReadScope(app: app, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: timeZone)))
                == (try await ingested.metrics.retention(
                    ReadScope(app: app, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: timeZone)))))
        let steps: [FunnelStep] = ["open", FunnelStep("screen_view", [.is("screen", "home")]), "purchase"]
        let funnel = try await upgraded.metrics.funnel(
            steps, breakdown: "app_version",
            in: ReadScope(app: app, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: timeZone)))
        #expect(
            funnel
                == (try await ingested.metrics.funnel(
                    steps, breakdown: "app_version",
                    in: ReadScope(app: app, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: timeZone)))))
        #expect(funnel.steps[1].users > 0)
    }

    /// A store from before migration "bucket-log-sessions", whose bucket logs have no
    /// sessions, gets them from its raw events when opened, under its app's segment
    /// properties: its paths, filtered too, are those of the store that ingested the events.
    @Test func sessionsAreAddedToTheLogsOfAStoreFromBeforeThem() async throws {
        let (ingested, app, _, timeZone) = try await PathOracleTests.randomStore(seed: 2, on: .sqlite)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("TallyStoreTests/\(UUID().uuidString).sqlite").path
        try await ingested.pool.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [path]) }
        try await DatabaseQueue(path: path).write { db in
            try db.execute(
                sql: "DELETE FROM bucket_log; DELETE FROM bucket_log_tail; DELETE FROM grdb_migrations WHERE identifier = 'bucket-log-sessions'")
        }
        let upgraded = try EventStore(path: path)
        let (from, to) = ("2026-02-09", "2026-02-23")
        for test in PathOracleTests.cases {
            let paths = try await upgraded.metrics.paths(
                from: test.start, kind: test.kind, direction: test.direction, depth: test.depth,
                in: ReadScope(app: app, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: timeZone), filter: test.filter))
            let expected = try await ingested.metrics.paths(
                from: test.start, kind: test.kind, direction: test.direction, depth: test.depth,
                in: ReadScope(app: app, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: timeZone), filter: test.filter))
            #expect(paths == expected, "\(test)")
            #expect(test.start == "missing" || paths.sessions > 0, "\(test)")
        }
    }

    /// Migration "bucket-log-sessions" does on PostgreSQL what it does on SQLite: a database whose bucket logs
    /// have no sessions gets them from its raw events, under its app's segment properties.
    @Test(arguments: TestDatabase.all.filter { $0 == .postgres })
    func sessionsAreAddedToTheLogsOfAPostgresDatabaseBeforeBucketLogSessions(database: TestDatabase) async throws {
        let url = try await database.makeDatabase()
        let (ingested, app, _, timeZone) = try await PathOracleTests.randomStore(seed: 2, on: database, store: try await EventStore(database: url))
        try await TestDatabase.withClient(on: url) { client in
            for statement in [
                "DELETE FROM bucket_log", "DELETE FROM bucket_log_tail", "DELETE FROM schema_migration WHERE name = 'bucket-log-sessions'",
            ] {
                try await client.query(PostgresQuery(unsafeSQL: statement))
            }
        }
        let upgraded = try await EventStore(database: url)
        for test in PathOracleTests.cases {
            let paths = try await upgraded.metrics.paths(
                from: test.start, kind: test.kind, direction: test.direction, depth: test.depth,
                in: ReadScope(
                    app: app, days: CalendarDay("2026-02-09")!...CalendarDay("2026-02-23")!, timeZone: TimeZone(identifier: timeZone),
                    filter: test.filter))
            let expected = try await ingested.metrics.paths(
                from: test.start, kind: test.kind, direction: test.direction, depth: test.depth,
                in: ReadScope(
                    app: app, days: CalendarDay("2026-02-09")!...CalendarDay("2026-02-23")!, timeZone: TimeZone(identifier: timeZone),
                    filter: test.filter))
            #expect(paths == expected, "\(test)")
            #expect(test.start == "missing" || paths.sessions > 0, "\(test)")
        }
    }

    /// A store from before revenue (migration "purchases") gets every app the default
    /// purchase event and an empty `purchase` rollup, which the purchases ingested from then
    /// on fill.
    @Test(arguments: TestDatabase.all)
    func purchasesAreAddedToAStoreFromBeforeRevenue(database: TestDatabase) async throws {
        let url = try await database.makeDatabase()
        func open() async throws -> EventStore { try await EventStore(database: url) }
        let app = try await open().apps.create(name: "Old").app.id
        try await Self.downgrade(
            url, on: database, ["ALTER TABLE app DROP COLUMN purchase_event", "DROP TABLE purchase"], forgetting: ["purchases"])
        let upgraded = try await open()
        #expect(try await upgraded.apps.app(id: app)?.purchaseEvent == "purchase")
        let time = instant("2026-03-01T10:00:00Z")
        try await upgraded.events.insert([event(name: "purchase", at: time, properties: ["revenue": "4.5", "currency": "EUR"])], app: app)
        let revenue = try await upgraded.metrics.revenue(
            ReadScope(app: app, days: CalendarDay("2026-03-01")!...CalendarDay("2026-03-01")!, timeZone: TimeZone(identifier: "UTC")))
        #expect(revenue.currencies["EUR"]?.revenue == "4.5")
        #expect(revenue.payingUsers == 1)
    }

    /// A store from before removal tails (migration "removal-tails") whose logs are rebuilt
    /// by an earlier migration ("bucket-log-sessions") gets `removed_user` before the
    /// rebuild writes them, reads as before, and deletes a user as a new store does.
    @Test(arguments: TestDatabase.all)
    func logsAreRebuiltInAStoreFromBeforeRemovalTails(database: TestDatabase) async throws {
        let url = try await database.makeDatabase()
        func open() async throws -> EventStore { try await EventStore(database: url) }
        let store = try await open()
        let app = try await store.apps.create(name: "Old").app.id
        let start = instant("2026-03-01T10:00:00Z")
        try await store.events.insert(
            (0..<40).map { event(name: $0 % 2 == 0 ? "open" : "tap", at: start.addingTimeInterval(Double($0) * 600), user: "u\($0 % 3)") },
            app: app)
        let funnel = try await store.metrics.funnel(
            ["open", "tap"],
            in: ReadScope(app: app, days: CalendarDay("2026-03-01")!...CalendarDay("2026-03-01")!, timeZone: TimeZone(identifier: "UTC")))
        try await Self.downgrade(
            url, on: database, ["DROP INDEX bucket_log_tail_removals", "ALTER TABLE bucket_log_tail DROP COLUMN removed_user"],
            forgetting: ["bucket-log-sessions", "removal-tails"])
        let upgraded = try await open()
        #expect(
            try await upgraded.metrics.funnel(
                ["open", "tap"],
                in: ReadScope(app: app, days: CalendarDay("2026-03-01")!...CalendarDay("2026-03-01")!, timeZone: TimeZone(identifier: "UTC")))
                == funnel)
        _ = try await upgraded.userData.delete(app: app, user: "u0", by: "cli")
        #expect(try await upgraded.userData.foldRemovals() > 0)
        let after = try await upgraded.metrics.day(ReadScope(app: app, day: CalendarDay("2026-03-01")!, timeZone: TimeZone(identifier: "UTC")))
        #expect(after.dau == 2)
    }

    /// A SQLite database from before migration "raw-retention" gets the raw event retention:
    /// its apps keep every raw event, none was pruned, and a retention can then be set.
    @Test func aStoreFromBeforeRawRetentionKeepsEveryRawEvent() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("TallyStoreTests/\(UUID().uuidString).sqlite").path
        let old = try DatabaseQueue(path: path)
        try Migration.sqliteMigrator.migrate(old, upTo: "members")
        try await old.write { db in
            try db.execute(
                sql: """
                    INSERT INTO app (id, name, time_zone, accepted_event_age, ingest_key_hash, read_token_hash, created_at)
                    VALUES (1, 'Old', 'UTC', 86400, x'01', x'02', 0)
                    """)
        }
        try old.close()
        let upgraded = try EventStore(path: path)
        let app = try #require(try await upgraded.apps.app(id: AppID(rawValue: 1)))
        #expect(app.rawRetentionDays == nil)
        #expect(app.rawEventsKeptSince == nil)
        #expect(try await upgraded.apps.update(app.id, rawRetention: .days(2)).rawRetentionDays == 2)
    }

    /// Migration "raw-retention" does on PostgreSQL what it does on SQLite.
    @Test(arguments: TestDatabase.all.filter { $0 == .postgres })
    func aPostgresDatabaseBeforeRawRetentionKeepsEveryRawEvent(database: TestDatabase) async throws {
        let url = try await database.makeDatabase()
        let app = try await EventStore(database: url).apps.create(name: "Old", acceptedEventAge: 86_400).app.id
        try await TestDatabase.withClient(on: url) { client in
            for statement in [
                "ALTER TABLE app DROP COLUMN raw_retention_days", "ALTER TABLE app DROP COLUMN raw_kept_since",
                "DELETE FROM schema_migration WHERE name = 'raw-retention'",
            ] {
                try await client.query(PostgresQuery(unsafeSQL: statement))
            }
        }
        let upgraded = try await EventStore(database: url)
        let stored = try #require(try await upgraded.apps.app(id: app))
        #expect(stored.rawRetentionDays == nil)
        #expect(stored.rawEventsKeptSince == nil)
        #expect(try await upgraded.apps.update(app, rawRetention: .days(2)).rawRetentionDays == 2)
    }

    /// Migration "user-deletions" adds `user_deletion` to a store that had none: a store
    /// opened again after losing the table gets it back empty, keeps every other row, and
    /// records deletions in it.
    @Test(arguments: TestDatabase.all)
    func userDeletionsAreAddedToAnOlderStore(database: TestDatabase) async throws {
        let url = try await database.makeDatabase()
        let store = try await EventStore(database: url)
        let app = try await store.apps.create(name: "Old").app.id
        _ = try await store.events.insert(
            [event(at: instant("2026-02-10T10:00:00Z"), user: "a"), event(at: instant("2026-02-10T11:00:00Z"), user: "b")], app: app)
        try await Self.downgrade(url, on: database, ["DROP TABLE user_deletion", "DROP TABLE user_number_floor"], forgetting: ["user-deletions"])
        let upgraded = try await EventStore(database: url)
        #expect(try await upgraded.userData.deletions(app: app).isEmpty)
        let deletion = try await upgraded.userData.delete(app: app, user: "a", by: "cli")
        #expect(try await upgraded.userData.deletions(app: app) == [deletion] && deletion.events == 1)
        #expect(try await upgraded.users.search(app: app, prefix: "").map(\.id) == ["b"])
    }

    /// A store from before migration "alerts" gets alerts and annotations: its apps keep their
    /// keys, have no write token until their keys are rotated, and take rules and annotations.
    @Test func aStoreFromBeforeAlertsGetsAlertsAndAnnotations() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("TallyStoreTests/\(UUID().uuidString).sqlite").path
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        do {
            let old = try DatabaseQueue(path: path)
            try Migration.sqliteMigrator.migrate(old, upTo: "members")
            try await old.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO app (id, name, time_zone, accepted_event_age, ingest_key_hash, read_token_hash, created_at)
                        VALUES (1, 'Old', 'UTC', 86400, ?, ?, 0)
                        """, arguments: [AccessKey.hash("ik_old"), AccessKey.hash("rt_old")])
            }
        }
        try await Self.checkUpgraded(try EventStore(path: path))
    }

    /// Migration "alerts" does on PostgreSQL what it does on SQLite.
    @Test(arguments: TestDatabase.all.filter { $0 == .postgres })
    func aPostgresDatabaseBeforeAlertsGetsAlertsAndAnnotations(database: TestDatabase) async throws {
        let url = try await database.makeDatabase()
        _ = try await EventStore(database: url)
        try await TestDatabase.withClient(on: url) { client in
            for statement in [
                "DROP TABLE alert_rule, alert_evaluation, webhook_delivery, annotation", "ALTER TABLE app DROP COLUMN write_token_hash",
                "DELETE FROM schema_migration WHERE name = 'alerts'",
                """
                INSERT INTO app (id, name, time_zone, accepted_event_age, ingest_key_hash, read_token_hash, created_at)
                VALUES (1, 'Old', 'UTC', 86400, '\\x\(AccessKey.hash("ik_old").map { String(format: "%02x", $0) }.joined())',
                    '\\x\(AccessKey.hash("rt_old").map { String(format: "%02x", $0) }.joined())', 0)
                """,
            ] {
                try await client.query(PostgresQuery(unsafeSQL: statement))
            }
        }
        try await Self.checkUpgraded(try await EventStore(database: url))
    }

    /// The checks of an upgraded store holding app 1, "Old", with the keys `ik_old` and `rt_old`.
    static func checkUpgraded(_ store: EventStore) async throws {
        let app = try #require(try await store.apps.app(readToken: "rt_old"))
        #expect(app.name == "Old")
        #expect(try await store.apps.app(ingestKey: "ik_old")?.id == app.id)
        #expect(try await store.apps.app(writeToken: "rt_old") == nil)
        try await store.alerts.save(
            try AlertRule(name: "r", metric: .headline(.dau), condition: .above(1), webhook: "https://example.com/", secret: "s"), app: app.id)
        #expect(try await store.alerts.rules(app: app.id).map(\.name) == ["r"])
        try await store.annotations.add(app: app.id, time: Date(timeIntervalSince1970: 10), text: "note")
        #expect(try await store.annotations.list(app: app.id, from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 20)).count == 1)
        let keys = try await store.apps.rotateKeys(app.id)
        #expect(try await store.apps.app(writeToken: keys.writeToken)?.id == app.id)
    }

    /// Runs `statements` on the database at `url`, then forgets the migrations `names`, which
    /// made what they undo, so that the next store opened there applies them again.
    static func downgrade(_ url: String, on database: TestDatabase, _ statements: [String], forgetting names: [String]) async throws {
        let forget = "(\(names.map { "'\($0)'" }.joined(separator: ", ")))"
        switch database {
        case .sqlite:
            try await DatabaseQueue(path: url).write { db in
                for statement in statements { try db.execute(sql: statement) }
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier IN \(forget)")
            }
        case .postgres:
            try await TestDatabase.withClient(on: url) { client in
                for statement in statements + ["DELETE FROM schema_migration WHERE name IN \(forget)"] {
                    try await client.query(PostgresQuery(unsafeSQL: statement))
                }
            }
        }
    }
}

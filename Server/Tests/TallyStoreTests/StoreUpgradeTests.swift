import Foundation
import GRDB
import PostgresNIO
import Synchronization
import TallyEvent
import TallyStoreTesting
import Testing

@testable import TallyStore

/// A store written by main at 6a0a5e6, before migrations had names (SQLite's "v1" to "v15",
/// PostgreSQL's 1 to 12), upgrades in place on both databases.
///
/// `Fixtures/store-6a0a5e6.sqlite`, and `Fixtures/store-6a0a5e6.sql` (`pg_dump --inserts`), hold
/// what that version wrote: an app in Asia/Kathmandu with segment properties and a purchase event,
/// ``UserDataOracle/events(seed:)`` of seed 5 inserted as ``UserDataOracle/insert(_:into:app:seed:)``
/// does, a saved segment, an annotation, a dashboard user with a role and a layout, an alert rule,
/// a second app, and the deletion of ``UserDataOracle/deleted``'s data, its removals not yet folded.
@Suite struct StoreUpgradeTests {
    @Test(arguments: TestDatabase.all)
    func aStoreFromBeforeNamedMigrationsUpgradesInPlace(database: TestDatabase) async throws {
        let url = try await Self.restore(on: database)
        let upgraded = try await EventStore(database: url)
        #expect(try await Self.appliedMigrations(url, on: database) == Set(Migration.all.map(\.name)))

        // Everything that is not an event survived.
        #expect(try await upgraded.apps.all().map(\.name).sorted() == ["Second", "Upgrade"])
        let app = try #require(try await upgraded.apps.all().first { $0.name == "Upgrade" })
        #expect(app.timeZone == "Asia/Kathmandu" && app.purchaseEvent == "purchase" && app.segmentProperties == UserDataOracle.properties)
        #expect(try await upgraded.segments.saved(app: app.id).map(\.name) == ["iOS pro"])
        #expect(try await upgraded.annotations.list(app: app.id, from: .distantPast, to: .distantFuture).map(\.text) == ["Release 2.0"])
        #expect(try await upgraded.alerts.rules(app: app.id).map(\.name) == ["Quiet day"])
        let member = try #require(try await upgraded.members.list(app: app.id).first)
        #expect(member.role == .editor)
        #expect(try await upgraded.accounts.sectionLayout(user: member.user.id, app: app.id) == Data(#"{"hidden":["paths"]}"#.utf8))
        #expect(try await upgraded.userData.deletions(app: app.id).map(\.deletedBy) == ["ana"])
        #expect(try await upgraded.users.timeline(app: app.id, user: UserDataOracle.deleted) == nil)

        // It reads as a new store given the raw events it holds, before and after more ingest.
        let rebuilt = try await database.makeStore()
        let copy = try await rebuilt.apps.create(name: "Rebuilt", timeZone: app.timeZone).app.id
        _ = try await rebuilt.apps.update(copy, segmentProperties: app.segmentProperties, purchaseEvent: app.purchaseEvent)
        for id in [app.id, app.id.debug] {
            var held: [Event] = []
            for try await event in upgraded.events.export(app: id, from: .distantPast, to: .distantFuture) {
                var event = event
                event.isDebug = id.isDebug
                held.append(event)
            }
            #expect(!held.isEmpty)
            _ = try await rebuilt.events.insert(held, app: copy)
        }
        let more = UserDataOracle.events(seed: 6)
        try await UserDataOracle.insert(more, into: upgraded, app: app.id, seed: 6)
        try await UserDataOracle.insert(more, into: rebuilt, app: copy, seed: 6)
        #expect(try await upgraded.userData.foldRemovals() > 0)
        // Unfiltered and by a user property: the reads of segments, what migrations rebuilt.
        let filters = UserDataOracle.filters.prefix(2)
        let read = try await UserDataOracle.metrics(upgraded, app: app.id, timeZone: app.timeZone, filters: Array(filters))
        let expected = try await UserDataOracle.metrics(rebuilt, app: copy, timeZone: app.timeZone, filters: Array(filters))
        let differing = Set(read.keys).union(expected.keys).filter { read[$0] != expected[$0] }.sorted()
        #expect(differing.isEmpty, "\(differing.prefix(5)) of \(differing.count)")

        // Its schema is a new store's.
        let fresh = try await database.makeDatabase()
        _ = try await EventStore(database: fresh).events.insert(more, app: try await EventStore(database: fresh).apps.create(name: "Fresh").app.id)
        #expect(try await Self.schema(url, on: database) == (try await Self.schema(fresh, on: database)))
    }

    /// A copy of the fixture of `database`'s kind, in a new database.
    static func restore(on database: TestDatabase) async throws -> String {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "Fixtures")
        let url = try await database.makeDatabase()
        switch database {
        case .sqlite:
            try FileManager.default.copyItem(at: fixtures.appending(path: "store-6a0a5e6.sqlite"), to: URL(fileURLWithPath: url))
        case .postgres:
            let dump = try String(contentsOf: fixtures.appending(path: "store-6a0a5e6.sql"), encoding: .utf8)
            let script = dump.split(separator: "\n").filter { !$0.hasPrefix("--") }.joined(separator: "\n")
            try await TestDatabase.withClient(on: url) { client in
                try await client.withConnection { connection in
                    try await PostgresSchema.run(script, on: connection, logger: connection.logger)
                }
            }
        }
        return url
    }

    /// The names of the migrations the database at `url` records as applied.
    static func appliedMigrations(_ url: String, on database: TestDatabase) async throws -> Set<String> {
        switch database {
        case .sqlite:
            return try await DatabaseQueue(path: url).read { db in try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations") }
        case .postgres:
            let names = Mutex<Set<String>>([])
            try await TestDatabase.withClient(on: url) { client in
                for try await name in try await client.query("SELECT name FROM schema_migration").decode(String.self) {
                    names.withLock { _ = $0.insert(name) }
                }
                let legacy = try await client.query("SELECT to_regclass('tally_migration') IS NULL").decode(Bool.self)
                for try await dropped in legacy { #expect(dropped, "tally_migration is left") }
            }
            return names.withLock { $0 }
        }
    }

    /// Every table, column and index of the database at `url`, but the migrations' records.
    static func schema(_ url: String, on database: TestDatabase) async throws -> [String] {
        switch database {
        case .sqlite:
            return try await DatabaseQueue(path: url).read { db in
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_master
                        WHERE name NOT IN ('grdb_migrations', 'sqlite_sequence') ORDER BY name
                        """)
            }
        case .postgres:
            let rows = Mutex<[String]>([])
            try await TestDatabase.withClient(on: url) { client in
                let columns = try await client.query(
                    """
                    SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '')
                    FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> 'schema_migration'
                    ORDER BY table_name, ordinal_position
                    """)
                for try await column in columns.decode(String.self) { rows.withLock { $0.append(column) } }
                let indexes = try await client.query(
                    "SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename <> 'schema_migration' ORDER BY indexname")
                for try await index in indexes.decode(String.self) { rows.withLock { $0.append(index) } }
            }
            return rows.withLock { $0 }
        }
    }
}

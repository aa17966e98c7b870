import Foundation
public import PostgresNIO
public import TallyStore

/// The databases tests run the store on: SQLite always; PostgreSQL when
/// `TALLY_TEST_POSTGRES_URL` names a server whose user may create databases (`.ci/run` starts
/// one with `.ci/postgres`). With `CI=true` and no URL, a PostgreSQL case fails rather than
/// disappear.
///
/// ```swift
/// @Test(arguments: TestDatabase.all)
/// func eventsAreCounted(database: TestDatabase) async throws {
///     let store = try await database.makeStore()
/// }
/// ```
public enum TestDatabase: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgres

    public var description: String { rawValue }

    /// The PostgreSQL server's URL, from `TALLY_TEST_POSTGRES_URL`.
    public static let postgresURL = ProcessInfo.processInfo.environment["TALLY_TEST_POSTGRES_URL"]

    /// Both databases when a PostgreSQL server is given or required (`CI=true`), else SQLite
    /// alone, which it says once on standard output.
    public static let all: [TestDatabase] = {
        if postgresURL != nil || ProcessInfo.processInfo.environment["CI"] == "true" { return [.sqlite, .postgres] }
        print("TALLY_TEST_POSTGRES_URL is not set: the store's tests run on SQLite only (.ci/run starts a server)")
        return [.sqlite]
    }()

    /// The databases of a stress test of the engine's own threads (the halves of a day's users,
    /// of a path's sessions, of a funnel's users), which count either database's rows alike:
    /// ``all`` in a plain run, SQLite alone under ThreadSanitizer, where the ingest such a test
    /// needs to pass the engine's thresholds takes most of its minutes.
    public static var engineStress: [TestDatabase] { Array(ThreadSanitizer.prefix(1, of: all)) }

    /// A database of this kind for one store: the path of a SQLite file in a fresh temporary
    /// folder, or the URL of a fresh database created on the PostgreSQL server.
    public func makeDatabase() async throws -> String {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-test-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return folder.appendingPathComponent("tally.sqlite").path
        case .postgres:
            guard let url = Self.postgresURL else { throw MissingServer() }
            return try await Self.createDatabase(on: url)
        }
    }

    /// Deletes the SQLite file `database` made by ``makeDatabase()``, with its folder; leaves a
    /// PostgreSQL database, which the throwaway server takes with it.
    public func removeDatabase(_ database: String) {
        guard self == .sqlite else { return }
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: database).deletingLastPathComponent())
    }

    /// A store on an empty database of this kind (see ``makeDatabase()``).
    public func makeStore() async throws -> EventStore {
        try await EventStore(database: try await makeDatabase())
    }

    /// CI=true, and `TALLY_TEST_POSTGRES_URL` is not set.
    public struct MissingServer: Error, CustomStringConvertible {
        public var description: String { "CI=true and TALLY_TEST_POSTGRES_URL is not set: the PostgreSQL tests cannot run" }
    }

    /// Creates an empty database on the server of `url` and returns its URL.
    public static func createDatabase(on url: String) async throws -> String {
        let name = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await withClient(on: url) { client in try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)")) }
        var components = URLComponents(string: url)!
        components.path = "/" + name
        return components.string!
    }

    /// Waits until `count` connections to the database of `url` listen for notifications.
    public static func waitForListeners(_ count: Int, on url: String) async throws {
        try await withClient(on: url) { client in
            while true {
                let rows = try await client.query(
                    """
                    SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'
                    """)
                var listening = 0
                for try await found in rows.decode(Int.self) { listening = found }
                if listening >= count { return }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    /// Runs `body` with a client of the server of `url`.
    public static func withClient(on url: String, _ body: @Sendable (PostgresClient) async throws -> Void) async throws {
        let client = PostgresClient(configuration: try PostgresURL.configuration(url))
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            try await body(client)
        }
    }
}

import Foundation
import Logging
import PostgresNIO
@testable import TallyStore
import Testing

/// The databases the store's tests run against: SQLite always; PostgreSQL when
/// `TALLY_TEST_POSTGRES_URL` names a server where the URL's user may create databases
/// (`.ci/run` starts one with `.ci/postgres`). With `CI=true` and no URL, the PostgreSQL cases
/// fail rather than disappear.
enum TestDatabase: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// The server's URL, from the environment.
    static let postgresURL = ProcessInfo.processInfo.environment["TALLY_TEST_POSTGRES_URL"]

    /// Both databases when a PostgreSQL server is given or required, else SQLite only.
    static let all: [TestDatabase] = {
        if postgresURL != nil || ProcessInfo.processInfo.environment["CI"] == "true" { return [.sqlite, .postgres] }
        print("TallyStore tests: TALLY_TEST_POSTGRES_URL is not set, so they run on SQLite only (.ci/run starts a server)")
        return [.sqlite]
    }()

    /// A store on an empty database of this kind: a fresh SQLite file, or a fresh PostgreSQL
    /// database created on the server.
    func makeStore() async throws -> EventStore {
        switch self {
        case .sqlite:
            return try TallyStoreTests.makeStore()
        case .postgres:
            guard let url = Self.postgresURL else {
                Issue.record("CI=true and TALLY_TEST_POSTGRES_URL is not set: PostgreSQL tests cannot run")
                throw CancellationError()
            }
            return try await EventStore(database: try await Self.createDatabase(on: url))
        }
    }

    /// Creates an empty database on the server of `url` and returns its URL.
    static func createDatabase(on url: String) async throws -> String {
        let name = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let client = PostgresClient(configuration: try PostgresURL.configuration(url))
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await client.run() }
            try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
            group.cancelAll()
        }
        var components = URLComponents(string: url)!
        components.path = "/" + name
        return components.string!
    }

    /// Waits until `count` connections to the database of `url` are listening for notifications.
    static func waitForListeners(_ count: Int, on url: String) async throws {
        let client = PostgresClient(configuration: try PostgresURL.configuration(url))
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await client.run() }
            while true {
                let rows = try await client.query("""
                    SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'
                    """)
                var listening = 0
                for try await found in rows.decode(Int.self) { listening = found }
                if listening >= count { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            group.cancelAll()
        }
    }
}

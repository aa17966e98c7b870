import Foundation
import Synchronization
import TallyStore

/// Stores filled with ``Workload`` days, generated once and cached, because filling 10 million
/// events takes minutes.
///
/// On SQLite the cache lives in `$TMPDIR/tally-pipeline-fixtures` (`/tmp` by default):
/// `store-<days>d.sqlite` plus a `.done` marker written when filling finished (a file without
/// it is rebuilt); the 60-day store starts as a copy of the 6-day one. Delete the folder after
/// a schema change. On PostgreSQL (see ``Database``) each fixture is a database of the server,
/// `tally_fixture_<days>d`, marked done by its comment; the 60-day one is created from the
/// 6-day one as a template.
package enum Fixtures {
    /// 2026-01-01T00:00:00Z, the first day of every fixture.
    package static let start = Date(timeIntervalSince1970: 1_767_225_600)
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-pipeline-fixtures")

    /// The store holding days `0..<days` of `population` (6 days of 20k users ≈ 1.05M events,
    /// 60 ≈ 10.6M; 60 of 200k users ≈ 10.8M) and its app, opened once per run so that
    /// iterations share its connections and page caches.
    package static func store(
        days: Int, of population: Workload.Population = .twentyThousand, on database: Database = .sqlite
    ) async throws -> (store: EventStore, app: AppID) {
        try await opened.withLock { opened in
            opened[
                Key(days: days, population: population, database: database),
                default: Task {
                    let store = try await EventStore(database: try await fill(days: days, of: population, on: database))
                    return (store, try await store.apps.all()[0].id)
                }]
        }.value
    }

    /// Where fixtures are stored.
    package enum Database: Hashable, Sendable {
        case sqlite
        /// Databases of the PostgreSQL server `url` names (its own database is where they are
        /// created from).
        case postgres(url: String)

        /// PostgreSQL when `TALLY_BENCH_POSTGRES_URL` names a server, else SQLite.
        package static let fromEnvironment: Database =
            ProcessInfo.processInfo.environment["TALLY_BENCH_POSTGRES_URL"].map { .postgres(url: $0) } ?? .sqlite

        /// `sqlite` or `postgresql`, for reports.
        package var name: String {
            if case .postgres = self { "postgresql" } else { "sqlite" }
        }
    }

    private struct Key: Hashable {
        let days: Int
        let population: Workload.Population
        let database: Database
    }

    private static let opened = Mutex<[Key: Task<(store: EventStore, app: AppID), any Error>]>([:])

    /// The milliseconds since 1970 of the local day `date` (`YYYY-MM-DD`) in the time zone
    /// `zone`, from its first to the first of the day after.
    package static func milliseconds(of date: String, in zone: String) -> Range<Int64> {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        let parts = date.split(separator: "-").map { Int($0)! }
        let start = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))!
        let end = calendar.date(byAdding: .day, value: 1, to: start)!
        return Int64(start.timeIntervalSince1970 * 1000)..<Int64(end.timeIntervalSince1970 * 1000)
    }

    /// The day `day` of the fixtures, as `YYYY-MM-DD`.
    package static func date(_ day: Int) -> String {
        String(start.addingTimeInterval(Double(day) * 86_400).ISO8601Format().prefix(10))
    }

    /// The file of the store holding days `0..<days` of `population`, filled once
    /// ``store(days:of:)`` returned.
    package static func path(days: Int, of population: Workload.Population = .twentyThousand) -> String {
        let users = population == .twentyThousand ? "" : "-\(population.users / 1000)k"
        return folder.appendingPathComponent("store-\(days)d\(users).sqlite").path
    }

    /// The fixture's events as CSV (what `tally export --format csv` writes), for DuckDB and
    /// ClickHouse: written once beside the SQLite fixture (the same events on either database).
    package static func csv(days: Int, of population: Workload.Population, store: EventStore, app: AppID) async throws -> String {
        let csv = path(days: days, of: population) + ".csv"
        guard !FileManager.default.fileExists(atPath: csv) else { return csv }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: csv + ".partial", contents: nil)
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: csv + ".partial"))
        try file.write(contentsOf: Data(ExportFormat.csvHeader.utf8))
        let count = try await store.events.write(app: app, from: start, to: start.addingTimeInterval(Double(days) * 86_400), as: .csv) {
            try file.write(contentsOf: Data($0))
        }
        try file.close()
        try FileManager.default.moveItem(atPath: csv + ".partial", toPath: csv)
        print("exported \(count) events to \(csv)")
        return csv
    }

    /// The JSON object the Python script `script` prints when run with `arguments`.
    package static func python(_ script: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw PythonError(script: script.lastPathComponent, status: process.terminationStatus)
        }
        return object
    }

    private struct PythonError: Error, CustomStringConvertible {
        let script: String
        let status: Int32
        var description: String { "\(script) failed with status \(status) (python3 -m pip install duckdb chdb)" }
    }

    /// The database holding days `0..<days` of `population` on `database`, filled first if
    /// it is not yet: a SQLite path or a PostgreSQL URL.
    private static func fill(days: Int, of population: Workload.Population, on database: Database) async throws -> String {
        guard case .postgres(let server) = database else { return try await fill(days: days, of: population) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)  // for files made from it
        let name = "tally_fixture_\(days)d" + (population == .twentyThousand ? "" : "_\(population.users / 1000)k")
        var components = URLComponents(string: server)!
        components.path = "/" + name
        let url = components.string!
        let done = "filled by the pipeline fixtures"
        if try psql("SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = '\(name)'", on: server) == done {
            return url
        }
        _ = try psql("DROP DATABASE IF EXISTS \(name)", on: server)
        var first = 0
        if days > 6 {
            let template = URLComponents(string: try await fill(days: 6, of: population, on: database))!.path.dropFirst()
            _ = try psql("CREATE DATABASE \(name) TEMPLATE \(template)", on: server)
            first = 6
        } else {
            _ = try psql("CREATE DATABASE \(name)", on: server)
        }
        try await insert(days: first..<days, of: population, into: try await EventStore(database: url), label: name)
        _ = try psql("COMMENT ON DATABASE \(name) IS '\(done)'", on: server)
        return url
    }

    /// What Debian's `psql` prints for `sql` on the database `url` names.
    private static func psql(_ sql: String, on url: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql]
        process.environment = ProcessInfo.processInfo.environment.merging(["PGOPTIONS": "-c client_min_messages=warning"]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw PSQLError(sql: sql, status: process.terminationStatus) }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private struct PSQLError: Error {
        let sql: String
        let status: Int32
    }

    /// Stores `days` of `population` in `store`, in batches of 5,000 events.
    private static func insert(days: Range<Int>, of population: Workload.Population, into store: EventStore, label: String) async throws {
        let app = days.lowerBound == 0 ? try await store.apps.create(name: "Bench").app.id : try await store.apps.all()[0].id
        for day in days {
            let events = Workload.events(day: day, from: start, of: population)
            for batch in stride(from: 0, to: events.count, by: 5_000) {
                try await store.events.insert(Array(events[batch..<min(batch + 5_000, events.count)]), app: app)
            }
            print("fixture \(label): day \(day + 1) of \(days.upperBound) stored")
        }
    }

    private static func fill(days: Int, of population: Workload.Population) async throws -> String {
        let path = path(days: days, of: population)
        let done = path + ".done"
        if FileManager.default.fileExists(atPath: done) { return path }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        var first = 0
        if days > 6 {
            let source = try await fill(days: 6, of: population)
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: source + suffix) {
                try FileManager.default.copyItem(atPath: source + suffix, toPath: path + suffix)
            }
            first = 6
        }
        try await insert(days: first..<days, of: population, into: try EventStore(path: path), label: "\(days)d")
        _ = FileManager.default.createFile(atPath: done, contents: nil)
        return path
    }
}

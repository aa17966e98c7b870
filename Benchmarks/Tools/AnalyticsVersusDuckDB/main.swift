// Day metrics and retention beside DuckDB (PyPI's `duckdb`), in one run, over the same events
// of the pipeline fixture:
//   Tally  — EventStore.metrics for each of the fixture's last 30 days (p50 of a second pass,
//            caches warm; the first pass's p50 is printed beside it), and the daily
//            retention matrix of those 30 days (p50 and p95 of 20 runs), and the dashboard's
//            retention tiles (EventStore.returningUsers) for each of the 30 days;
//   DuckDB — duckdb_side.py: the same events exported as CSV (what `tally export --format csv`
//            writes) in an in-memory table, 2 threads, the same questions.
// Both sides count the retention matrix's cohorts and each day's DAU, WAU, MAU and new users,
// and the run stops if they differ. Then the day's metric set under two segment filters
// (app_version, and app_version and platform), beside DuckDB with the same WHERE. Last, on
// SQLite, the size of the rollups, and of what segments and funnels read, beside the raw
// events, per million events (SQLite's dbstat,
// through Debian's `sqlite3`). With TALLY_BENCH_POSTGRES_URL set, Tally's side runs on that
// PostgreSQL server instead (the fixture is a database of it; see Fixtures).
//
//     python3 -m pip install duckdb
//     swift run -c release AnalyticsVersusDuckDB                  # 60 days of 20k users, 10.6M events
//     USERS=200000 swift run -c release AnalyticsVersusDuckDB     # 60 days of 200k users, 10.8M events
//     DAYS=6 ZONE=Asia/Kathmandu swift run -c release AnalyticsVersusDuckDB
import Foundation
import PipelineWorkload
import TallyEvent
import TallyStore

let environment = ProcessInfo.processInfo.environment
let days = environment["DAYS"].flatMap(Int.init) ?? 60
let zone = environment["ZONE"] ?? "UTC"
let population: Workload.Population = environment["USERS"] == "200000" ? .twoHundredThousand : .twentyThousand
let database = Fixtures.Database.fromEnvironment
let opening = ContinuousClock.now
let (store, app) = try await Fixtures.store(days: days, of: population, on: database)
print(String(format: "fixture opened in %.1f s (a store of an earlier schema is migrated then)", (ContinuousClock.now - opening).seconds))
let dates = (max(0, days - 30)..<days).map(Fixtures.date)

let csv = try await Fixtures.csv(days: days, of: population, store: store, app: app)

/// Seconds `body` takes.
func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    try await ContinuousClock().measure(body).seconds
}

/// The value below which `share` of `values` lie.
func percentile(_ values: [Double], _ share: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * share))]
}

// Two passes over the days: the first reads the rollups from disk into the caches, the
// second is measured, as DuckDB's queries run on a table already loaded in memory.
var coldDayTimes: [Double] = []
var dayTimes: [Double] = []
var dayValues: [String: [Int]] = [:]
/// A day's DAU, WAU, MAU and new users, as duckdb_side.py reports them.
func values(_ metrics: DayMetrics) -> [Int] { [metrics.dau, metrics.wau, metrics.mau, metrics.newUsers] }
for date in dates {
    coldDayTimes.append(
        try await seconds { _ = try await store.metrics.day(ReadScope(app: app, day: CalendarDay(date)!, timeZone: TimeZone(identifier: zone))) })
}
for date in dates {
    var metrics: DayMetrics?
    dayTimes.append(
        try await seconds {
            metrics = try await store.metrics.day(ReadScope(app: app, day: CalendarDay(date)!, timeZone: TimeZone(identifier: zone)))
        })
    dayValues[date] = values(metrics!)
}
var retention: Retention?
var retentionTimes: [Double] = []
for _ in 0..<20 {
    retentionTimes.append(
        try await seconds {
            retention = try await store.metrics.retention(
                ReadScope(app: app, days: CalendarDay(dates.first!)!...CalendarDay(dates.last!)!, timeZone: TimeZone(identifier: zone)))
        })
}

// The dashboard's retention tiles: three cells of the matrix, from the last day's activity.
var tileTimes: [Double] = []
for date in dates {
    tileTimes.append(
        try await seconds {
            _ = try await store.metrics.returningUsers(
                after: [1, 7, 30], in: ReadScope(app: app, day: CalendarDay(date)!, timeZone: TimeZone(identifier: zone)))
        })
}

let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("duckdb_side.py")
let duck = try Fixtures.python(script, [csv, zone] + dates)
guard let duckDay = duck["day_metrics_p50"] as? Double, let duckRetention = duck["retention_p50"] as? Double,
    let duckSizes = duck["cohort_sizes"] as? [String: Int], let duckReturning = duck["returning_total"] as? Int
else { fatalError("duckdb_side.py printed \(duck)") }

let cohorts = retention!.cohorts
let sizes = Dictionary(uniqueKeysWithValues: cohorts.filter { $0.size > 0 }.map { ($0.start, $0.size) })
precondition(sizes == duckSizes, "the cohorts differ: \(sizes) against DuckDB's \(duckSizes)")
precondition(cohorts.map { $0.returning.reduce(0, +) }.reduce(0, +) == duckReturning, "the returning users differ")

precondition(duck["days"] as? [String: [Int]] == dayValues, "the day metrics differ from DuckDB's")
let dayP50 = percentile(dayTimes, 0.5)
let retentionP50 = percentile(retentionTimes, 0.5)
print(
    """
    \(days)-day fixture of \(population.users) users, \(zone), \(dates.count) days; Tally on \(database.name); \
    DuckDB \(duck["version"] as? String ?? ""), 2 threads, in memory
    """)
print(
    String(
        format: "day metric set   Tally p50 %8.2f ms (p95 %.2f, first read %.2f)   DuckDB p50 %8.2f ms   %6.1fx", dayP50 * 1e3,
        percentile(dayTimes, 0.95) * 1e3, percentile(coldDayTimes, 0.5) * 1e3, duckDay * 1e3, duckDay / dayP50))
print(
    String(
        format: "retention %dx%d  Tally p50 %8.2f ms (p95 %.2f)   DuckDB p50 %8.2f ms   %6.1fx", dates.count, dates.count,
        retentionP50 * 1e3, percentile(retentionTimes, 0.95) * 1e3, duckRetention * 1e3, duckRetention / retentionP50))
print(String(format: "retention tiles  Tally p50 %8.2f ms (1, 7 and 30 days back, one day's activity)", percentile(tileTimes, 0.5) * 1e3))

// The day's metric set under a segment filter, beside the unfiltered set and DuckDB with the
// same WHERE, each day's DAU, WAU, MAU and new users compared.
for (filter, condition) in [
    (SegmentFilter([.is("app_version", "2.0.0")]), "app_version = '2.0.0'"),
    (SegmentFilter([.is("app_version", "2.0.0"), .is("platform", "Android")]), "app_version = '2.0.0' AND platform = 'Android'"),
] {
    for date in dates {
        _ = try await store.metrics.day(ReadScope(app: app, day: CalendarDay(date)!, timeZone: TimeZone(identifier: zone), filter: filter))
    }
    var times: [Double] = []
    var filtered: [String: [Int]] = [:]
    for date in dates {
        var metrics: DayMetrics?
        times.append(
            try await seconds {
                metrics = try await store.metrics.day(
                    ReadScope(app: app, day: CalendarDay(date)!, timeZone: TimeZone(identifier: zone), filter: filter))
            })
        filtered[date] = values(metrics!)
    }
    let side = try Fixtures.python(script, [csv, zone] + dates, environment: ["WHERE": condition])
    guard let duckFiltered = side["day_metrics_p50"] as? Double else { fatalError("duckdb_side.py printed \(side)") }
    precondition(side["days"] as? [String: [Int]] == filtered, "the filtered day metrics differ from DuckDB's")
    let p50 = percentile(times, 0.5)
    print(
        String(
            format: "  where %@\n  day metric set   Tally p50 %8.2f ms (p95 %.2f; %.2fx the unfiltered set)   DuckDB p50 %8.2f ms   %6.1fx",
            condition, p50 * 1e3, percentile(times, 0.95) * 1e3, p50 / dayP50, duckFiltered * 1e3, duckFiltered / p50))
}

// Sizes, on SQLite: the raw events with their indexes, and every rollup with its indexes.
guard database == .sqlite else { exit(0) }
/// What Debian's `sqlite3` prints for `sql` over the fixture.
func sqlite(_ sql: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [Fixtures.path(days: days, of: population), sql]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return text
}
var bytes: [String: Double] = [:]
for line in try sqlite("SELECT name, sum(pgsize) FROM dbstat GROUP BY name").split(separator: "\n") {
    let fields = line.split(separator: "|")
    if fields.count == 2, let size = Double(fields[1]) { bytes[String(fields[0])] = size }
}
let rollupTables = [
    "name_bucket", "screen_bucket", "bucket_users", "day_users", "bucket_activity", "app_user", "app_user_by_number",
    "label", "sqlite_autoindex_label_1",
]
let segmentTables = ["bucket_log", "bucket_log_tail", "day_key_users", "segment_key", "segment_key_by_labels", "user_trait", "trait_users"]
let rawEvents = ["event", "event_by_id", "event_by_time"].compactMap { bytes[$0] }.reduce(0, +)
let rollups = rollupTables.compactMap { bytes[$0] }.reduce(0, +)
let millions = (Double(try sqlite("SELECT count(*) FROM event").trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) / 1e6
let table = bytes["event"] ?? 0
print(
    String(
        format: "storage per million events: raw events %.1f MB (table %.1f, indexes %.1f), rollups %.1f MB (%.2fx the raw table)",
        rawEvents / millions / 1e6, table / millions / 1e6, (rawEvents - table) / millions / 1e6, rollups / millions / 1e6,
        rollups / table))
print(rollupTables.compactMap { name in bytes[name].map { String(format: "%@ %.2f", name, $0 / millions / 1e6) } }.joined(separator: ", ") + " MB")
let segments = segmentTables.compactMap { bytes[$0] }.reduce(0, +)
print(
    String(format: "segments and funnels: %.1f MB per million events (%.2fx the raw table): ", segments / millions / 1e6, segments / table)
        + segmentTables.compactMap { name in bytes[name].map { String(format: "%@ %.2f", name, $0 / millions / 1e6) } }.joined(separator: ", ")
        + " MB")

// Paths of depth 3 over 30 days of the pipeline fixture, beside DuckDB (in memory, 2 threads,
// window functions over sessions), in one run, over the same events (paths_side.py). Tally
// answers from its own storage (the bucket logs' sessions), never raw events: the p50 and p95
// of 20 runs (or RUNS) after the first, whose time is printed beside them. The run stops
// unless both find the same sessions and the same steps at every level.
//
//     python3 -m pip install duckdb
//     swift run -c release PathsVersusDuckDB                              # screens after screen_5
//     KIND=event START=open swift run -c release PathsVersusDuckDB
//     DIRECTION=before ZONE=Asia/Kathmandu swift run -c release PathsVersusDuckDB
import Foundation
import PipelineWorkload
import TallyEvent
import TallyStore

let environment = ProcessInfo.processInfo.environment
let days = 60
let zone = environment["ZONE"] ?? "UTC"
let kind = Paths.Kind(rawValue: environment["KIND"] ?? "screen")!
let start = environment["START"] ?? (kind == .screen ? "screen_5" : "open")
let direction = Paths.Direction(rawValue: environment["DIRECTION"] ?? "after")!
let depth = environment["DEPTH"].flatMap(Int.init) ?? 3
let database = Fixtures.Database.fromEnvironment
let (store, app) = try await Fixtures.store(days: days, of: .twentyThousand, on: database)
let csv = try await Fixtures.csv(days: days, of: .twentyThousand, store: store, app: app)
let (from, to) = (Fixtures.date(days - 30), Fixtures.date(days - 1))

/// The paths of the run.
func read() async throws -> Paths {
    try await store.metrics.paths(
        from: start, kind: kind, direction: direction, depth: depth,
        in: ReadScope(app: app, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: zone)))
}
var paths: Paths?
let first = try await ContinuousClock().measure { paths = try await read() }.seconds
var times: [Double] = []
for _ in 0..<(environment["RUNS"].flatMap(Int.init) ?? 20) {
    times.append(try await ContinuousClock().measure { paths = try await read() }.seconds)
}
let tally = paths!
times.sort()
let (p50, p95) = (times[times.count / 2], times[times.count * 95 / 100])

let side = try Fixtures.python(
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("paths_side.py"),
    [
        csv, String(Fixtures.milliseconds(of: from, in: zone).lowerBound), String(Fixtures.milliseconds(of: to, in: zone).upperBound), start,
        kind.rawValue,
        direction.rawValue, String(depth),
    ])
guard let duck = side["duckdb_p50"] as? Double, let sessions = side["sessions"] as? Int, let levels = side["levels"] as? [[String: Int]]
else { fatalError("paths_side.py printed \(side)") }
// DuckDB's levels, ranked and cut as Tally's are.
let expected = levels.map { level in Paths.level(ranking: level.map { Paths.Step(step: $0.key, sessions: $0.value) }) }
print(
    """
    \(days)-day fixture of 20,000 users, \(zone), \(from)…\(to); Tally on \(database.name); DuckDB \(side["duckdb_version"] ?? ""), 2 threads
    \(kind) paths \(direction) \(start), depth \(depth): \(tally.sessions) sessions; level 1: \
    \(tally.levels[0].prefix(4).map { "\($0.step) \($0.sessions)" }.joined(separator: ", "))…
    """)
print(String(format: "paths  Tally p50 %8.2f ms (p95 %.2f, first run %.2f)", p50 * 1e3, p95 * 1e3, first * 1e3))
print(String(format: "       DuckDB (window functions) p50 %8.2f ms   %6.1fx", duck * 1e3, duck / p50))
precondition(sessions == tally.sessions, "DuckDB finds \(sessions) sessions, Tally \(tally.sessions)")
precondition(expected == tally.levels, "DuckDB counts \(expected), Tally \(tally.levels)")

// A funnel of 4 steps over 30 days of the pipeline fixture at windows of 1 minute, 1 hour and
// 1 day, beside ClickHouse's windowFunnel (chDB, in process, a Memory table) and DuckDB (in
// memory, 2 threads), in one run, over the same events (funnel_side.py). Tally answers from its
// own storage (the bucket log), never raw events, twice: in process (EventStore.funnel) and as a
// user gets it, `GET /v1/funnels` over loopback from the application `tally serve` runs
// (TallyApplication), on one keep-alive connection. Each is the p50 of 20 runs (or RUNS) after
// a warm-up. The run stops unless the four agree on every step's users.
//
//     python3 -m pip install duckdb chdb
//     swift run -c release FunnelVersusClickHouse                  # 60 days of 20k users, 10.6M events
//     USERS=200000 swift run -c release FunnelVersusClickHouse     # 60 days of 200k users
//     ZONE=Asia/Kathmandu STEPS=screen_view,tap,purchase WINDOWS=3600 swift run -c release FunnelVersusClickHouse
//     RUNS=500 perf record -g .build/release/FunnelVersusClickHouse      # Tally's runs to profile
import Foundation
import PipelineWorkload
import Synchronization
import TallyApp
import TallyEvent
import TallyHTTP
import TallyStore

let environment = ProcessInfo.processInfo.environment
let days = 60
let zone = environment["ZONE"] ?? "UTC"
let population: Workload.Population = environment["USERS"] == "200000" ? .twoHundredThousand : .twentyThousand
let stepsText = environment["STEPS"] ?? "open,search,add_to_cart,purchase"
let steps = try FunnelStep.steps(parsing: stepsText)
let windows = (environment["WINDOWS"] ?? "60,3600,86400").split(separator: ",").compactMap { Int($0) }
let runs = environment["RUNS"].flatMap(Int.init) ?? 20
let database = Fixtures.Database.fromEnvironment
let (store, app) = try await Fixtures.store(days: days, of: population, on: database)
let csv = try await Fixtures.csv(days: days, of: population, store: store, app: app)
let (from, to) = (Fixtures.date(days - 30), Fixtures.date(days - 1))

let range = (Fixtures.milliseconds(of: from, in: zone).lowerBound, Fixtures.milliseconds(of: to, in: zone).upperBound)

/// The p50 and p95 of `runs` calls of `body` after one, in milliseconds.
func timed(_ body: () async throws -> Void) async throws -> (p50: Double, p95: Double) {
    try await body()
    var times: [Double] = []
    for _ in 0..<runs { times.append(try await ContinuousClock().measure { try await body() }.seconds * 1e3) }
    times.sort()
    return (times[times.count / 2], times[times.count * 95 / 100])
}

// The route: the application `tally serve` runs, over the same store, with a read token.
let token = try await store.apps.rotateKeys(app).readToken
var settings = ServerSettings()
settings.port = 0
settings.logLevel = .critical
let served = try await TallyApplication(store: store, settings: settings).start()

let side = try Fixtures.python(
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("funnel_side.py"),
    [csv, String(range.0), String(range.1), windows.map { String($0 * 1000) }.joined(separator: ",")] + steps.map(\.event))
guard let sides = side["windows"] as? [String: [String: Any]] else { fatalError("funnel_side.py printed \(side)") }
print(
    """
    \(days)-day fixture of \(population.users) users, \(zone), \(from)…\(to); Tally on \(database.name); \
    ClickHouse \(side["clickhouse_version"] ?? "") (chDB \(side["chdb_version"] ?? "")), DuckDB \(side["duckdb_version"] ?? ""), 2 threads
    """)
print("steps \(steps.map(\.description).joined(separator: " → "))")
print("events of the steps' names sharing a user's millisecond: \(side["shared_milliseconds"] ?? "?")")
for window in windows {
    var funnel: Funnel?
    let engine = try await timed {
        funnel = try await store.metrics.funnel(
            steps, window: window, in: ReadScope(app: app, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: zone)))
    }
    let path = "/v1/funnels?steps=\(stepsText)&from=\(from)&to=\(to)&window=\(window)&tz=\(zone)"
    let answer = try await LoadClient.body(port: served.port, path: path, headers: ["Authorization": "Bearer \(token)"])
    let routeUsers = (try JSONSerialization.jsonObject(with: answer) as? [String: Any])?["steps"] as? [[String: Any]]
    let sent = Atomic(0)
    let route = try await LoadClient.timed(port: served.port) {
        sent.add(1, ordering: .relaxed).newValue > runs + 1 ? nil : ("GET", path, ["Authorization": "Bearer \(token)"], Data())
    }
    guard route.allSatisfy({ $0.status == 200 }) else { fatalError("GET \(path): \(route.map(\.status))") }
    let routeTimes = route.dropFirst().map(\.milliseconds).sorted()
    let (routeP50, routeP95) = (routeTimes[routeTimes.count / 2], routeTimes[routeTimes.count * 95 / 100])
    guard let sides = sides[String(window * 1000)], let clickhouse = sides["clickhouse_p50"] as? Double,
        let duck = sides["duckdb_p50"] as? Double, let clickhouseUsers = sides["clickhouse_users"] as? [Int],
        let duckUsers = sides["duckdb_users"] as? [Int]
    else { fatalError("funnel_side.py printed \(side)") }
    let users = funnel!.steps.map(\.users)
    print("window \(window) s: users \(users)")
    print(String(format: "  Tally in process    p50 %8.2f ms (p95 %.2f)   %6.1fx ClickHouse", engine.p50, engine.p95, clickhouse * 1e3 / engine.p50))
    print(
        String(
            format: "  Tally GET /v1/funnels p50 %6.2f ms (p95 %.2f)   %6.1fx ClickHouse, %.2f ms over the engine", routeP50, routeP95,
            clickhouse * 1e3 / routeP50, routeP50 - engine.p50))
    print(String(format: "  ClickHouse windowFunnel p50 %6.2f ms", clickhouse * 1e3))
    print(String(format: "  DuckDB (ASOF joins) p50 %8.2f ms", duck * 1e3))
    precondition(routeUsers?.compactMap { $0["users"] as? Int } == users, "the route counts \(String(describing: routeUsers)), the engine \(users)")
    precondition(duckUsers == users, "DuckDB counts \(duckUsers), Tally \(users)")
    precondition(clickhouseUsers == users, "ClickHouse counts \(clickhouseUsers), Tally \(users)")
}
try await served.stop()

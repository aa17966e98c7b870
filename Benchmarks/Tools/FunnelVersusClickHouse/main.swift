// A funnel of 4 steps over 30 days of the pipeline fixture, beside ClickHouse's windowFunnel
// (chDB, in process, a Memory table) and DuckDB (in memory, 2 threads), in one run, over the
// same events (funnel_side.py). Tally answers from its own storage (the bucket log), never raw
// events: the p50 of 20 runs (or RUNS) after a warm-up, with the first run's time beside it. The run
// stops unless the three agree on every step's users.
//
//     python3 -m pip install duckdb chdb
//     swift run -c release FunnelVersusClickHouse                  # 60 days of 20k users, 10.6M events
//     USERS=200000 swift run -c release FunnelVersusClickHouse     # 60 days of 200k users
//     ZONE=Asia/Kathmandu STEPS=screen_view,tap,purchase WINDOW=3600 swift run -c release FunnelVersusClickHouse
//     RUNS=500 perf record -g .build/release/FunnelVersusClickHouse      # Tally's runs to profile
import Foundation
import PipelineWorkload
import TallyStore

let environment = ProcessInfo.processInfo.environment
let days = 60
let zone = environment["ZONE"] ?? "UTC"
let population: Workload.Population = environment["USERS"] == "200000" ? .twoHundredThousand : .twentyThousand
let steps = try FunnelStep.steps(parsing: environment["STEPS"] ?? "open,search,add_to_cart,purchase")
let window = environment["WINDOW"].flatMap(Int.init) ?? 86_400
let database = Fixtures.Database.fromEnvironment
let (store, app) = try await Fixtures.store(days: days, of: population, on: database)
let csv = try await Fixtures.csv(days: days, of: population, store: store, app: app)
let (from, to) = (Fixtures.date(days - 30), Fixtures.date(days - 1))

let range = (Fixtures.milliseconds(of: from, in: zone).lowerBound, Fixtures.milliseconds(of: to, in: zone).upperBound)

var funnel: Funnel?
let first = try await ContinuousClock().measure {
    funnel = try await store.funnel(app: app, steps: steps, from: from, to: to, window: window, timeZone: zone)
}.seconds
var times: [Double] = []
for _ in 0..<(environment["RUNS"].flatMap(Int.init) ?? 20) {
    times.append(
        try await ContinuousClock().measure {
            funnel = try await store.funnel(app: app, steps: steps, from: from, to: to, window: window, timeZone: zone)
        }.seconds)
}
times.sort()
let tally = times[times.count / 2]

let side = try Fixtures.python(
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("funnel_side.py"),
    [csv, String(range.0), String(range.1), String(window * 1000)] + steps.map(\.event))
guard let clickhouse = side["clickhouse_p50"] as? Double, let duck = side["duckdb_p50"] as? Double,
    let clickhouseUsers = side["clickhouse_users"] as? [Int], let duckUsers = side["duckdb_users"] as? [Int]
else { fatalError("funnel_side.py printed \(side)") }
let users = funnel!.steps.map(\.users)
print(
    """
    \(days)-day fixture of \(population.users) users, \(zone), \(from)…\(to), window \(window) s; Tally on \(database.name); \
    ClickHouse \(side["clickhouse_version"] ?? "") (chDB \(side["chdb_version"] ?? "")), DuckDB \(side["duckdb_version"] ?? ""), 2 threads
    """)
print("steps \(steps.map(\.description).joined(separator: " → ")): users \(users)")
print("events of the steps' names sharing a user's millisecond: \(side["shared_milliseconds"] ?? "?")")
print(String(format: "funnel  Tally p50 %8.2f ms (p95 %.2f, first run %.2f)", tally * 1e3, times[times.count * 95 / 100] * 1e3, first * 1e3))
print(String(format: "        ClickHouse windowFunnel p50 %8.2f ms   %6.1fx", clickhouse * 1e3, clickhouse / tally))
print(String(format: "        DuckDB (ASOF joins) p50 %8.2f ms   %6.1fx", duck * 1e3, duck / tally))
precondition(duckUsers == users, "DuckDB counts \(duckUsers), Tally \(users)")
precondition(clickhouseUsers == users, "ClickHouse counts \(clickhouseUsers), Tally \(users)")

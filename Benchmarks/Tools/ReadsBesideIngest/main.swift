// Costly reads beside another app's ingest, through the real routes: issue 45's admission
// targets, on a copy of the 6-day fixture (1.05M events, 20,000 users).
//
// Two scenarios, each run with the reads unbounded and then with the server's default
// admission (`ReadAdmission.Limits()`), in one run:
// - `api`: 50 clients asking for a worst-case funnel (10 steps, a 90-day window) and 50 for
//   depth-5 paths, all on the fixture app's one read token, each sending its next request as
//   soon as the last is answered, for `SECONDS` seconds (20 by default);
// - `tabs`: 8 dashboard pages of one user on a one-year funnel of the fixture app, kept live
//   (`LiveUpdates`, as their sockets would be) while the fixture app receives 10 events a second.
// Throughout, another app's ingest (4 clients, a batch of 20 events every 50 ms each, waiting for
// the durable acknowledgement) and `/healthz` (every 50 ms) are timed. Printed per scenario and
// bound: the acknowledgements' and `/healthz`'s p50, p99 and maximum, and the reads answered 200
// and 503.
//
//     swift run -c release ReadsBesideIngest
//     SCENARIOS=tabs SECONDS=30 swift run -c release ReadsBesideIngest
import Foundation
import PipelineWorkload
import Synchronization
import TallyApp
import TallyDashboard
import TallyEvent
import TallyHTTP
import TallyStore

let environment = ProcessInfo.processInfo.environment
let seconds = environment["SECONDS"].flatMap(Double.init) ?? 20

_ = try await Fixtures.store(days: 6)
let fixture = Fixtures.path(days: 6)

/// Set once a phase ends; read by its clients before each request.
final class StopFlag: Sendable {
    private let value = Atomic(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
}

func summary(_ name: String, _ timings: [(status: Int, milliseconds: Double)]) -> String {
    let times = timings.map(\.milliseconds).sorted()
    guard !times.isEmpty else { return "\(name): none" }
    func at(_ fraction: Double) -> Double { times[min(times.count - 1, Int(Double(times.count) * fraction))] }
    let statuses = Dictionary(grouping: timings, by: \.status).mapValues(\.count).sorted { $0.key < $1.key }
    return String(
        format: "%@: %6d  p50 %8.2f ms  p99 %8.2f ms  max %8.2f ms  %@", name, times.count, at(0.5), at(0.99), times.last!,
        statuses.map { "\($0.key): \($0.value)" }.joined(separator: ", "))
}

/// An ingest body of 20 events of `user`s, now.
func ingestBody(_ sent: Int, client: Int) -> Data {
    let now = Date()
    let events = (0..<20).map { index -> [String: Any] in
        [
            "id": UUID().uuidString, "name": ["open", "tap", "screen_view"][index % 3], "timestamp": now.ISO8601Format(),
            "user_id": "user-\(client)-\(sent % 500)", "session_id": "s-\(client)", "app_version": "1.0", "platform": "iOS",
            "properties": [:] as [String: Any],
        ]
    }
    return try! JSONSerialization.data(withJSONObject: ["sent_at": now.ISO8601Format(), "events": events])
}

/// Runs one scenario on a fresh copy of the fixture with `limits`; `load` starts its reads
/// once ingest runs, and returns their timings when `done` is set.
func phase(
    _ name: String, limits: ReadAdmission.Limits,
    load:
        @escaping @Sendable (_ served: ServingApplication, _ store: EventStore, _ app: NewApp, _ done: StopFlag) async throws -> [(
            status: Int, milliseconds: Double
        )]
) async throws {
    let copy = FileManager.default.temporaryDirectory.appendingPathComponent("tally-reads-\(UUID().uuidString).sqlite").path
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) } }
    for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: fixture + suffix) {
        try FileManager.default.copyItem(atPath: fixture + suffix, toPath: copy + suffix)
    }
    let store = try EventStore(path: copy)
    let fixtureApp = try await store.apps.rotateKeys(try await store.apps.all()[0].id)
    let other = try await store.apps.create(name: "Other")
    var settings = ServerSettings()
    settings.port = 0
    settings.reads = limits
    settings.logLevel = .critical
    let served = try await TallyApplication(store: store, settings: settings).start()
    let done = StopFlag()
    let ingest = (0..<4).map { client in
        Task {
            let sent = Atomic(0)
            return try await LoadClient.timed(port: served.port, pause: .milliseconds(50)) {
                guard !done.isSet else { return nil }
                let count = sent.add(1, ordering: .relaxed).newValue
                return ("POST", "/v1/events", ["X-App-Key": other.ingestKey], ingestBody(count, client: client))
            }
        }
    }
    let health = Task {
        try await LoadClient.timed(port: served.port, pause: .milliseconds(50)) { done.isSet ? nil : ("GET", "/healthz", [:], Data()) }
    }
    let reads = Task { try await load(served, store, fixtureApp, done) }
    try await Task.sleep(for: .seconds(seconds))
    done.set()
    var acknowledgements: [(status: Int, milliseconds: Double)] = []
    for client in ingest { acknowledgements += try await client.value }
    let readTimings = try await reads.value
    let healthTimings = try await health.value
    try await served.stop()
    print("\(name)")
    print("  " + summary("other app's ingest", acknowledgements))
    print("  " + summary("/healthz          ", healthTimings))
    print("  " + summary("reads             ", readTimings))
}

let unbounded = ReadAdmission.Limits(running: 10_000, runningPerReader: 10_000, waitingPerReader: 10_000, deadline: .seconds(3_600))
let steps = ["open", "screen_view", "tap", "search", "add_to_cart", "purchase", "share", "like", "scroll", "login"].joined(separator: ",")
let (first, last) = (Fixtures.date(0), Fixtures.date(5))

/// 50 funnels and 50 paths on one read token, each client asking again once answered.
let api: @Sendable (ServingApplication, EventStore, NewApp, StopFlag) async throws -> [(status: Int, milliseconds: Double)] = {
    served, _, app, done in
    let paths = [
        "/v1/funnels?from=\(first)&to=\(last)&steps=\(steps)&window=7776000",
        "/v1/paths?from=\(first)&to=\(last)&start=screen_view&kind=event&depth=5",
    ]
    return try await withThrowingTaskGroup(of: [(status: Int, milliseconds: Double)].self) { group in
        for client in 0..<100 {
            group.addTask {
                try await LoadClient.timed(port: served.port) {
                    done.isSet ? nil : ("GET", paths[client % 2], ["Authorization": "Bearer \(app.readToken)"], Data())
                }
            }
        }
        var all: [(status: Int, milliseconds: Double)] = []
        for try await timings in group { all += timings }
        return all
    }
}

/// 8 live pages of one user on a one-year funnel while the fixture app receives 10 events a second.
let tabs: @Sendable (ServingApplication, EventStore, NewApp, StopFlag) async throws -> [(status: Int, milliseconds: Double)] = {
    served, store, app, done in
    let today = CalendarDay(Date(), in: .gmt)
    let funnel = FunnelQuery(steps: try FunnelStep.steps(parsing: steps), window: FunnelWindow("90d")!)
    let query = PageQuery(date: today, from: today.advanced(by: -364), sheet: .funnel(funnel))
    let pages = await MainActor.run {
        (0..<8).map { _ in
            let page = DashboardPage(app: app.app, layout: .default, query: query, store: store)
            page.reads = PageReads(
                admission: served.application.dashboard.reads, user: DashboardUserID(rawValue: 1), app: app.app.id,
                sheets: served.application.dashboard.sheetReads,
                liveSheetInterval: served.application.dashboard.liveSheetInterval)
            served.application.dashboard.live.register(page, user: DashboardUserID(rawValue: 1))
            return page
        }
    }
    for page in pages { await page.refresh() }
    let live = try await LoadClient.timed(port: served.port, pause: .milliseconds(100)) {
        guard !done.isSet else { return nil }
        let event: [String: Any] = [
            "id": UUID().uuidString, "name": "open", "timestamp": Date().ISO8601Format(), "user_id": "live", "session_id": "live",
            "app_version": "1.0", "platform": "iOS", "properties": [:] as [String: Any],
        ]
        let body: [String: Any] = ["sent_at": Date().ISO8601Format(), "events": [event]]
        return ("POST", "/v1/events", ["X-App-Key": app.ingestKey], try! JSONSerialization.data(withJSONObject: body))
    }
    await MainActor.run { for page in pages { served.application.dashboard.live.unregister(page) } }
    return live
}

let scenarios = (environment["SCENARIOS"] ?? "api,tabs").split(separator: ",")
print("ReadsBesideIngest on \(fixture), \(seconds) s a phase, \(ProcessInfo.processInfo.activeProcessorCount) cores")
if scenarios.contains("api") {
    try await phase("api, reads unbounded", limits: unbounded, load: api)
    try await phase("api, default admission", limits: ReadAdmission.Limits(), load: api)
}
if scenarios.contains("tabs") {
    try await phase("tabs, reads unbounded", limits: unbounded, load: tabs)
    try await phase("tabs, default admission", limits: ReadAdmission.Limits(), load: tabs)
}

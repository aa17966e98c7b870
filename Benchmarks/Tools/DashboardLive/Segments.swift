// Issue 30's dashboard target: a filtered page and the funnel sheet each answer within 50 ms
// p95 on the demo store. The demo app here also has the demo's segments: each user's plan
// (`free`, `pro`, `team`) set by an `identify`, and the login method, as segment properties.
//
//   page      — `GET /apps/{id}` as a browser loads it (the session checked, the report read,
//               the page rendered): unfiltered, then under one and two conditions;
//   sheet     — the same with the ad-hoc funnel sheet open (3 steps over 7 and 30 days,
//               broken down by plan): the funnel is counted before the page answers;
//   socket    — a funnel sheet's form changed over the page's WebSocket, until the sheet
//               with its counts arrives: what a user waits for after picking a step.
//
//     swift run -c release DashboardLive          (PART=segments for these alone)
import DashboardWorkload
import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import Synchronization
import TallyApp
import TallyDashboard
import TallyEvent
import TallyHTTP
import TallyStore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

enum SegmentLatency {
    /// Requests timed per row, after as many to warm up.
    static let requests = 200

    static func run() async throws {
        let (store, created) = try await DemoApp.make()
        let app = created.app.id
        try await addPlans(to: store, app: app)
        _ = try await store.apps.update(app, segmentProperties: SegmentProperties(event: ["method"], user: ["plan"]))
        let access = DashboardAccess(store: store, passwordCost: 4)
        let bench = try await access.createUser(name: "bench", password: "benchmark-password")
        try await store.members.setRole(.owner, of: bench.id, in: app)
        var settings = ServerSettings()
        settings.port = 0
        settings.rateLimit = nil
        var limits = SocketLimits()
        limits.messages.burst = 100_000
        let served = try await TallyApplication(store: store, settings: settings, access: access, socketLimits: limits).start()
        let session = try await access.signIn(name: "bench", password: "benchmark-password", from: "127.0.0.1")
        let base = "http://127.0.0.1:\(served.port)/apps/\(app.rawValue)"
        let today = DemoApp.today
        let week = CalendarDay(today)!.advanced(by: -6).description
        let month = CalendarDay(today)!.advanced(by: -29).description

        say("\nsegments and funnels on the demo store (\(requests) requests each, after \(requests) to warm up)")
        say("request | p50 | p95 | max")
        let rows: [(String, String)] = [
            ("page, unfiltered", "date=\(today)"),
            ("page, app_version==3.3.0", "date=\(today)&filters=app_version==3.3.0"),
            ("page, app_version==3.3.0;plan==pro", "date=\(today)&filters=app_version==3.3.0;plan==pro"),
            ("page, 30 days, plan!=free", "date=\(today)&from=\(month)&filters=plan!=free"),
            ("funnel sheet, 7 days, by plan", "date=\(today)&from=\(week)&sheet=funnel&steps=screen_view,bill_created,ad_shown&breakdown=plan"),
            (
                "funnel sheet, 30 days, by plan, filtered",
                "date=\(today)&from=\(month)&filters=app_version==3.3.0&sheet=funnel&steps=screen_view,bill_created,ad_shown&breakdown=plan"
            ),
        ]
        for (name, query) in rows {
            let times = try await timed(url: URL(string: "\(base)?\(query)")!, token: session.token)
            say(String(format: "%@ | %.1f ms | %.1f ms | %.1f ms", name, times.percentile(50), times.percentile(95), times.max() ?? 0))
        }
        let socket = try await socketFunnel(port: served.port, app: app, token: session.token, query: "date=\(today)&from=\(week)&sheet=funnel")
        say(
            String(
                format: "funnel sheet over the socket, a step changed, 7 days, by plan | %.1f ms | %.1f ms | %.1f ms", socket.percentile(50),
                socket.percentile(95), socket.max() ?? 0))
        try await served.stop()
    }

    /// Each of the demo's users identifies with a plan (6 in 10 free, 3 pro, 1 team) on the
    /// first day of the data.
    static func addPlans(to store: EventStore, app: AppID) async throws {
        let first = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 86_400).rounded(.down) * 86_400 - 59 * 86_400)
        let events = (0..<240).map { user in
            let time = first.addingTimeInterval(Double(user))
            let plan = user % 10 < 6 ? "free" : user % 10 < 9 ? "pro" : "team"
            return Event(
                id: UUID(), name: "identify", timestamp: time, deviceTimestamp: time, userID: "user-\(user)", sessionID: nil, appVersion: "3.0.0",
                platform: "ios", properties: ["plan": .string(plan)])
        }
        try await store.events.insert(events, app: app)
    }

    /// The milliseconds of ``requests`` `GET url`s with the session, one after another.
    static func timed(url: URL, token: String) async throws -> [Double] {
        // FoundationNetworking sends the cookies of its storage, never a `Cookie` header set here.
        let cookie = HTTPCookie(properties: [.name: "tally_session", .value: token, .domain: url.host ?? "", .path: "/"])
        if let cookie { HTTPCookieStorage.shared.setCookie(cookie) }
        let request = URLRequest(url: url)
        var times: [Double] = []
        for round in 0..<(2 * requests) {
            let start = ContinuousClock.now
            let (data, response) = try await URLSession.shared.data(for: request)
            let took = ContinuousClock.now - start
            guard (response as? HTTPURLResponse)?.statusCode == 200, response.url?.path == url.path else {
                fatalError("\(url) answered \(response)")
            }
            if round == 0 {
                let page = String(decoding: data, as: UTF8.self)
                guard page.contains("data-section=\"app\"") else { fatalError("not the dashboard: \(url)") }
                if url.query?.contains("sheet=funnel") == true, !page.contains("funnel-step:1") {
                    fatalError("the funnel sheet came without its counts: \(url)")
                }
            }
            if round >= requests { times.append(Double(took.components.attoseconds) / 1e15 + Double(took.components.seconds) * 1_000) }
        }
        return times
    }

    /// The milliseconds from a funnel form sent over the page's socket to the sheet with its
    /// counts, alternating between two funnels so that each is a change.
    static func socketFunnel(port: Int, app: AppID, token: String, query: String) async throws -> [Double] {
        let arrivals = Arrivals()
        var headers = HTTPFields()
        headers[.cookie] = "tally_session=\(token)"
        headers[.origin] = "http://127.0.0.1:\(port)"
        let forms = [
            "step=screen_view&step=bill_created&step=ad_shown&window=1d&breakdown=plan",
            "step=screen_view&step=ad_shown&window=1d&breakdown=plan",
        ]
        let times = Latencies()
        _ = try await WebSocketClient.connect(
            url: "ws://127.0.0.1:\(port)/apps/\(app.rawValue)/live?\(query)",
            configuration: .init(maxFrameSize: 1 << 22, additionalHeaders: headers), logger: Logger(label: "bench")
        ) { inbound, outbound, _ in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for try await message in inbound.messages(maxSize: 1 << 22) {
                        guard case .text(let text) = message, text.contains(#"data-metric=\"funnel-step:1\""#) else { continue }
                        arrivals.arrived()
                    }
                }
                for round in 0..<(2 * requests) {
                    let before = arrivals.count
                    let start = ContinuousClock.now
                    try await outbound.write(.text(#"{"event":"funnel","section":null,"value":"\#(forms[round % 2])"}"#))
                    while arrivals.count == before { try await Task.sleep(for: .microseconds(200)) }
                    let took = ContinuousClock.now - start
                    if round >= requests { times.add(Double(took.components.attoseconds) / 1e15 + Double(took.components.seconds) * 1_000) }
                }
                try await outbound.close(.normalClosure, reason: nil)
                group.cancelAll()
            }
        }
        return times.values
    }
}

/// How many sheets with counts a socket received.
final class Arrivals: Sendable {
    private let value = Mutex(0)

    var count: Int { value.withLock { $0 } }

    func arrived() { value.withLock { $0 += 1 } }
}

/// Milliseconds measured inside a socket's handler.
final class Latencies: Sendable {
    private let list = Mutex<[Double]>([])

    var values: [Double] { list.withLock { $0 } }

    func add(_ value: Double) { list.withLock { $0.append(value) } }
}

// Live dashboards under load, against issue 13's targets:
//   ingest-to-patch — 1, 10 and 100 dashboards of the demo app open over real WebSockets
//                     while a client ingests 1,000 events/s over HTTP for 10 s; for each
//                     acknowledged batch, the time until each tab receives a patch whose
//                     event count includes it (target p95 < 200 ms at 100 tabs), beside the
//                     ingest acknowledgement itself, and the reports read per tick (must not
//                     grow with the tabs);
//   memory          — resident memory per open page (1,000 pages with their report shown,
//                     target < 512 KiB), and 10 pages through an hour of live updates
//                     (14,400 reports each, one per 250 ms), sampled as it goes: it must stay flat.
//
//   segments        — issue 30: a filtered page and the funnel sheet, each within 50 ms p95
//                     (Segments.swift).
//
//     swift run -c release DashboardLive          (TABS=100 for one size only; PART=segments
//                                                  for the segments' latencies alone)
import Componentry
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

@main
struct DashboardLive {
    static func main() async throws {
        if ProcessInfo.processInfo.environment["PART"] == "segments" {
            try await SegmentLatency.run()
            return
        }
        say("ingest-to-patch, 1,000 events/s over HTTP for 10 s, each size on a new demo store")
        say("tabs | ack p50 | ack p95 | patch p50 | patch p95 | patch max | reports read per tick")
        // TABS=100 runs one size only (to profile it), and skips the memory runs.
        let only = ProcessInfo.processInfo.environment["TABS"].flatMap { Int($0) }
        for tabs in only.map({ [$0] }) ?? [1, 10, 100] {
            let (store, created) = try await DemoApp.make()
            let access = DashboardAccess(store: store, passwordCost: 4)
            let bench = try await access.createUser(name: "bench", password: "benchmark-password")
            try await store.members.setRole(.owner, of: bench.id, in: created.app.id)
            var configuration = ServerSettings()
            configuration.port = 0
            configuration.rateLimit = nil
            var limits = SocketLimits()
            limits.opened.burst = 1_000  // one user's 100 tabs at once
            let served = try await TallyApplication(store: store, settings: configuration, access: access, socketLimits: limits).start()
            let (server, port) = (served.application.dashboard, served.port)
            let session = try await access.signIn(name: "bench", password: "benchmark-password", from: "127.0.0.1")

            let result = try await measure(tabs: tabs, port: port, token: session.token, app: created)
            let (reads, ticks) = (server.live.reportsRead, server.live.ticks)
            say(
                String(
                    format: "%4d | %4.0f ms | %4.0f ms | %6.0f ms | %6.0f ms | %6.0f ms | %.2f (%d reads, %d ticks)", tabs,
                    result.ack.percentile(50), result.ack.percentile(95), result.patch.percentile(50), result.patch.percentile(95),
                    result.patch.max() ?? 0, Double(reads) / Double(max(ticks, 1)), reads, ticks))
            try await served.stop()
        }
        if only == nil {
            let (store, created) = try await DemoApp.make()
            try await memory(store: store, app: created.app)
            try await SegmentLatency.run()
        }
    }

    struct Result {
        var ack: [Double]
        var patch: [Double]
    }

    /// One run: `tabs` sockets, then 10 s of ingest, then the latencies.
    static func measure(tabs: Int, port: Int, token: String, app: NewApp) async throws -> Result {
        let seen = Seen(tabs: tabs)
        let duration = 10.0
        var clients: [Task<Void, any Error>] = []
        for tab in 0..<tabs {
            clients.append(
                Task {
                    var headers = HTTPFields()
                    headers[.cookie] = "tally_session=\(token)"
                    headers[.origin] = "http://127.0.0.1:\(port)"
                    _ = try await WebSocketClient.connect(
                        url: "ws://127.0.0.1:\(port)/apps/\(app.app.id.rawValue)/live",
                        configuration: .init(maxFrameSize: 1 << 22, additionalHeaders: headers),
                        logger: Logger(label: "bench")
                    ) { inbound, outbound, _ in
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            group.addTask {
                                for try await message in inbound.messages(maxSize: 1 << 22) {
                                    guard case .text(let text) = message, let count = eventCount(in: text) else { continue }
                                    let now = Date().timeIntervalSince1970
                                    seen.withLock { $0[tab].append((now, count)) }
                                }
                            }
                            try await Task.sleep(for: .seconds(duration + 4))
                            try await outbound.close(.normalClosure, reason: nil)
                            group.cancelAll()
                        }
                    }
                })
        }
        // Every tab has its page.
        for _ in 0..<1_500 where seen.withLock({ $0.contains { $0.isEmpty } }) { try await Task.sleep(for: .milliseconds(20)) }
        guard !seen.withLock({ $0.contains { $0.isEmpty } }) else {
            for client in clients { client.cancel() }
            for client in clients { if case .failure(let error) = await client.result { fatalError("a tab did not open: \(error)") } }
            fatalError("a tab did not get its page")
        }
        let base = seen.withLock { $0[0].last?.count ?? 0 }

        var acks: [(time: Double, count: Int, took: Double)] = []
        let url = URL(string: "http://127.0.0.1:\(port)/v1/events")!
        let batch = 50
        let start = Date().timeIntervalSince1970
        var sent = 0
        while Date().timeIntervalSince1970 - start < duration {
            let due = start + Double(sent) / 1_000
            let wait = due - Date().timeIntervalSince1970
            if wait > 0 { try await Task.sleep(for: .seconds(wait)) }
            var request = URLRequest(url: url)
            request.httpMethod = "POST"
            request.setValue(app.ingestKey, forHTTPHeaderField: "X-App-Key")
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = body(events: batch)
            let posted = Date().timeIntervalSince1970
            let (_, response) = try await URLSession.shared.data(for: request)
            guard (response as? HTTPURLResponse)?.statusCode == 200 else { fatalError("ingest answered \(response)") }
            sent += batch
            let acked = Date().timeIntervalSince1970
            acks.append((acked, base + sent, (acked - posted) * 1_000))
        }
        for client in clients { _ = try? await client.value }

        let all = seen.withLock { $0 }
        var latencies: [Double] = []
        for messages in all {
            for ack in acks {
                guard let shown = messages.first(where: { $0.count >= ack.count }) else { continue }
                latencies.append(max(0, shown.time - ack.time) * 1_000)
            }
        }
        return Result(ack: acks.map(\.took), patch: latencies)
    }

    static func body(events: Int) -> Data {
        let now = Date().formatted(.iso8601)
        let list = (0..<events).map { _ in
            #"{"id":"\#(UUID())","name":"bill_created","timestamp":"\#(now)","user_id":"live-\#(Int.random(in: 0..<1_000))","properties":{"note":"lunch","duration_s":12}}"#
        }
        return Data(#"{"sent_at":"\#(now)","events":[\#(list.joined(separator: ","))]}"#.utf8)
    }

    /// Resident memory per page, and over an hour of live updates.
    @MainActor
    static func memory(store: EventStore, app: App) async throws {
        let query = PageQuery(date: CalendarDay(DemoApp.today)!)
        var report = try await DayReport.load(from: store, app: app.id, layout: .default, query: query)
        let first = report
        let live = LiveUpdates(bus: EventBus()) { _, _ in first }
        let before = residentBytes()
        var pages: [DashboardPage] = []
        for _ in 0..<1_000 {
            let page = DashboardPage(app: app, layout: .default, query: query, store: store)
            _ = page.show(report)
            live.register(page)
            pages.append(page)
        }
        let perPage = Double(residentBytes() - before) / 1_000 / 1_024
        say(String(format: "\nmemory per open page (1,000 pages, report shown): %.0f KiB", perPage))
        pages.removeLast(990)

        say("10 pages through an hour of live updates (14,400 reports each), resident memory:")
        var samples: [String] = []
        for tick in 0..<14_400 {
            report.metrics.dau = tick % 500
            report.metrics.events["bill_created", default: 0] += 1
            for page in pages { _ = page.show(report) }
            await Task.yield()  // as between the server's ticks: the main actor's queued work runs
            if tick % 2_880 == 0 || tick == 14_399 { samples.append(String(format: "%.1f MiB", Double(residentBytes()) / 1_048_576)) }
        }
        say(samples.joined(separator: " → "))
    }

    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }
}

/// The event counts each tab saw, with when.
final class Seen: Sendable {
    private let messages: Mutex<[[(time: Double, count: Int)]]>

    init(tabs: Int) { messages = Mutex(Array(repeating: [], count: tabs)) }

    func withLock<Result>(_ body: (inout [[(time: Double, count: Int)]]) -> Result) -> Result {
        messages.withLock { body(&$0) }
    }
}

/// The events count a message shows, if it shows it: the number after
/// `data-metric=\"events\">` (JSON-escaped quotes). A byte search: Swift's `Regex`, then
/// `String.range(of:)`, cost the client (in this process, on the same 2 cores) more than
/// the server's tick.
func eventCount(in text: String) -> Int? {
    let marker = Array(#"data-metric=\"events\">"#.utf8)
    var text = text
    return text.withUTF8 { bytes -> Int? in
        guard bytes.count >= marker.count else { return nil }
        for start in 0...(bytes.count - marker.count) where bytes[start] == marker[0] {
            guard (1..<marker.count).allSatisfy({ bytes[start + $0] == marker[$0] }) else { continue }
            var value = 0
            var index = start + marker.count
            var digits = 0
            while index < bytes.count, (48...57).contains(bytes[index]), digits < 18 {
                value = value * 10 + Int(bytes[index] - 48)
                index += 1
                digits += 1
            }
            return digits > 0 ? value : nil
        }
        return nil
    }
}

/// Prints `line` at once, whatever stdout is.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

extension [Double] {
    /// The value below which `p` percent of the values fall (nearest rank).
    func percentile(_ p: Double) -> Double {
        guard !isEmpty else { return 0 }
        let rank = Int((Double(count) * p / 100).rounded(.up))
        return sorted()[Swift.max(0, Swift.min(count, rank) - 1)]
    }
}

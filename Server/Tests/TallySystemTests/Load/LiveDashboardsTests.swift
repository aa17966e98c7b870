import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import Synchronization
import TallyDashboard
import TallyStore
import TallyStoreTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// 500 dashboards open at once on `tally serve` (100 users with 5 tabs each: a user keeps at
/// most 8), each over its own WebSocket, all kept current while events arrive over HTTP.
@Suite("Live dashboards under load", .serialized, .systemTests)
struct LiveDashboardsTests {
    static let tabs = 500

    @Test func fiveHundredOpenDashboardsEachReceiveLiveUpdates() async throws {
        let database = try await TestDatabase.sqlite.makeDatabase()
        defer { TestDatabase.sqlite.removeDatabase(database) }
        let store = try await EventStore(database: database)
        let app = try await store.apps.create(name: "Live")
        let access = DashboardAccess(store: store, passwordCost: 4)
        var sessions: [String] = []
        for user in 0..<Self.tabs / 5 {
            let created = try await access.createUser(name: "user-\(user)", password: "load-test-password")
            try await store.members.setRole(.viewer, of: created.id, in: app.app.id)
            sessions.append(try await access.signIn(name: "user-\(user)", password: "load-test-password", from: "127.0.0.1").token)
        }
        // Every tab is on this host's one address: more than one address may hold by default.
        let collector = try await Collector(database: database, options: ["--max-connections-per-address", "\(Self.tabs * 2)"])
        let tabs = Tabs()
        let socket = "ws://127.0.0.1:\(collector.port)/apps/\(app.app.id.rawValue)/live"

        try await withThrowingTaskGroup(of: Void.self) { group in
            for tab in 0..<Self.tabs {
                let headers: HTTPFields = [.cookie: "tally_session=\(sessions[tab / 5])", .origin: collector.url.absoluteString]
                group.addTask {
                    _ = try await WebSocketClient.connect(
                        url: socket, configuration: .init(maxFrameSize: 1 << 22, additionalHeaders: headers), logger: Logger(label: "load")
                    ) { inbound, outbound, _ in
                        try await withThrowingTaskGroup(of: Void.self) { reading in
                            reading.addTask {
                                for try await message in inbound.messages(maxSize: 1 << 22) {
                                    if case .text = message { tabs.received.withLock { $0[tab] += 1 } }
                                }
                            }
                            while !tabs.stop.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(50)) }
                            try await outbound.close(.normalClosure, reason: nil)
                            reading.cancelAll()
                        }
                    }
                }
            }
            defer { tabs.stop.store(true, ordering: .releasing) }
            // Every tab has had its first view.
            let allOpened = try await Self.waitUntil { tabs.received.withLock { $0.allSatisfy { $0 > 0 } } }
            #expect(allOpened, "tabs without their first view: \(tabs.received.withLock { $0.filter { $0 == 0 }.count })")
            let opened = tabs.received.withLock { $0 }
            // The collector's metrics count them (swift-metrics' gauge, served by GET /metrics).
            let (metrics, _) = try await URLSession.shared.data(from: collector.url.appending(path: "metrics"))
            let gauge = String(decoding: metrics, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("tally_dashboards_open ") }
            #expect(gauge.flatMap { Double($0.split(separator: " ")[1]) } == Double(Self.tabs), "\(gauge ?? "no tally_dashboards_open")")
            // Events arrive over HTTP, 10 batches of 20; every tab is told.
            for _ in 0..<10 {
                try await Self.ingest(20, key: app.ingestKey, to: collector.url)
                try await Task.sleep(for: .milliseconds(100))
            }
            let allUpdated = try await Self.waitUntil { tabs.received.withLock { zip($0, opened).allSatisfy { $0 > $1 } } }
            let stale = tabs.received.withLock { zip($0, opened).filter { $0 <= $1 }.count }
            #expect(allUpdated, "tabs without a live update: \(stale)")
            tabs.stop.store(true, ordering: .releasing)
            try await group.waitForAll()
        }
        await collector.kill()
    }

    /// What the tabs received, and when they should close.
    final class Tabs: Sendable {
        /// Text messages per tab.
        let received = Mutex([Int](repeating: 0, count: LiveDashboardsTests.tabs))
        let stop = Atomic(false)
    }

    /// Waits up to two minutes for `condition`; returns whether it came true.
    static func waitUntil(_ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(120)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// Posts `count` events of new users to the collector at `url`.
    static func ingest(_ count: Int, key: String, to url: URL) async throws {
        let now = Date().formatted(.iso8601)
        let events = (0..<count).map { _ in #"{"id":"\#(UUID())","name":"live","timestamp":"\#(now)","user_id":"\#(UUID())"}"# }
        var request = URLRequest(url: url.appending(path: "v1/events"))
        request.httpMethod = "POST"
        request.setValue(key, forHTTPHeaderField: "X-App-Key")
        request.httpBody = Data(#"{"sent_at":"\#(now)","events":[\#(events.joined(separator: ","))]}"#.utf8)
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }
}

import Foundation
import Synchronization
import TallyHTTP
import TallyServer
import TallyServerTesting
import TallyTracker
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("SDK to collector over HTTP")
struct SDKEndToEndTests {
    /// A tracker writing to a fresh folder, uploading to `server`.
    func tracker(
        for server: LiveServer, key: String, _ configure: (inout Tracker.Configuration) -> Void = { _ in }
    ) throws -> Tracker {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sdk-\(UUID().uuidString)")
        var configuration = Tracker.Configuration(endpoint: server.url, appKey: key, storageDirectory: folder)
        configuration.tracksAppLifecycle = false  // the tests count their own events
        configuration.isDebug = false  // as a release build sends them: the app's production events
        configure(&configuration)
        return try Tracker(configuration: configuration)
    }

    @Test func trackedEventsArriveOnceThroughRealHTTP() async throws {
        try await LiveServer.with { server in
            let app = try await server.makeApp()
            let tracker = try tracker(for: server, key: app.ingestKey) { $0.batchSize = 50 }
            tracker.identify("user-1")
            for index in 0..<230 { tracker.track("bill_created", ["amount": .int(index)]) }
            tracker.screen("Home")
            let report = await tracker.flush()
            #expect(report.sent == 231)
            #expect(report.droppedCount == 0)
            let stored = try await server.storedEvents(app)
            #expect(stored.count == 231)
            #expect(Set(stored.map(\.id)).count == 231)
            #expect(stored.contains { $0.name == "screen_view" && $0.properties["screen"] == .string("Home") })
            #expect(stored.allSatisfy { $0.userID == "user-1" })
        }
    }

    @Test func batchesTooLargeForTheServerAreSplitUntilTheyFit() async throws {
        var configuration = ServerSettings()
        configuration.maximumBatchEvents = 7
        try await LiveServer.with(configuration: configuration) { server in
            let app = try await server.makeApp()
            let tracker = try tracker(for: server, key: app.ingestKey) { $0.batchSize = 40 }
            for _ in 0..<40 { tracker.track("ad_shown") }
            let report = await tracker.flush()
            #expect(report.sent == 40)
            #expect(report.droppedCount == 0)
            #expect(try await server.storedCount(app) == 40)
        }
    }

    @Test func eventsTheServerRejectsAreDroppedAloneAndCounted() async throws {
        try await LiveServer.with { server in
            let app = try await server.makeApp()
            // A device whose events were tracked 40 days ago, while offline, and 1 day ago:
            // the server accepts 30 days, so the older ones are rejected, the rest kept.
            let clock = Mutex(Date().addingTimeInterval(-40 * 86_400))
            let tracker = try tracker(for: server, key: app.ingestKey) {
                $0.now = { clock.withLock { $0 } }
                $0.maxEventAge = 60 * 86_400
            }
            for _ in 0..<3 { tracker.track("bill_created") }
            clock.withLock { $0 = Date().addingTimeInterval(-86_400) }
            for _ in 0..<4 { tracker.track("bill_created") }
            clock.withLock { $0 = Date() }
            let report = await tracker.flush()
            #expect(report.sent == 4)
            #expect(report.dropped[.rejectedByServer] == 3)
            #expect(try await server.storedCount(app) == 4)
        }
    }

    @Test func anUnreachableServerLosesNothingAndIsRetriedWithBackoff() async throws {
        let delays = Mutex<[TimeInterval]>([])
        let unreachable = URL(string: "http://127.0.0.1:9")!  // discard port: connection refused
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sdk-\(UUID().uuidString)")
        var configuration = Tracker.Configuration(endpoint: unreachable, appKey: "ik_any", storageDirectory: folder)
        configuration.tracksAppLifecycle = false
        configuration.sleep = { delay in
            delays.withLock { $0.append(delay) }
            try await Task.sleep(for: .seconds(3600))  // park the retry loop
        }
        let tracker = try Tracker(configuration: configuration)
        for _ in 0..<5 { tracker.track("login") }
        let report = await tracker.flush()
        #expect(report.sent == 0)
        #expect(report.droppedCount == 0)
        #expect(report.retried == 5)
        #expect(report.pending == 5)
        while delays.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(10)) }
        let first = try #require(delays.withLock { $0.first })
        #expect(first >= 0.5 && first <= 1)
    }

    /// An upload cancelled at any moment (the app shutting down, `flush` given up) ends with
    /// an answer or a cancellation; it never takes the process down. Cancelling a
    /// `URLSessionTask` just as it finishes traps in swift-corelibs-foundation, so this
    /// cancels 2,000 sends, each at a different point of its way.
    @Test func cancelledUploadsNeverCrashTheProcess() async throws {
        try await LiveServer.with { server in
            let transport = URLSessionTransport()
            let request = UploadRequest(url: server.url.appendingPathComponent("healthz"), method: "GET")
            var answered = 0
            for round in 0..<2_000 {
                let send = Task { try await transport.send(request) }
                for _ in 0..<(round % 50) { await Task.yield() }
                send.cancel()
                do {
                    #expect(try await send.value.status == 200)
                    answered += 1
                } catch {
                    #expect(error is CancellationError || (error as? URLError)?.code == .cancelled, "\(error)")
                }
            }
            #expect(answered < 2_000, "some sends were meant to be cancelled in flight")
        }
    }
}

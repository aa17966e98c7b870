import Foundation
import TallyServerTesting
import TallyTracker
import Testing

@Suite("SDK to collector over HTTP")
struct SDKEndToEndTests {
    @Test func trackedEventsArriveOnceThroughRealHTTP() async throws {
        try await LiveServer.with { server in
            let app = try await server.makeApp()
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sdk-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            var configuration = Tracker.Configuration(endpoint: server.url, appKey: app.ingestKey, storageDirectory: folder)
            configuration.batchSize = 50
            let tracker = try Tracker(configuration: configuration)
            tracker.identify("user-1")
            for index in 0..<230 { tracker.track("bill_created", ["amount": .int(index)]) }
            tracker.screen("Home")
            let report = await tracker.flush()
            #expect(report.sent == 231)
            #expect(report.droppedCount == 0)
            var stored = 0
            for try await _ in server.store.export(app: app.app.id, from: .distantPast, to: .distantFuture) { stored += 1 }
            #expect(stored == 231)
        }
    }
}

import Foundation
import TallyServerTesting
import TallyTracker
import Testing

// The README's tracking example, verbatim; ComponentryTests'
// `readmeExamplesAreCompiledByTests` fails when the two drift apart.

@Suite("README tracking example")
struct ReadmeExampleTracker {
    @Test func trackingExample() async throws {
        try await LiveServer.with { live in
            let created = try await live.makeApp()
            let (server, ingestKey) = (live.url, created.ingestKey)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }

            let tracker = try Tracker(configuration: .init(endpoint: server, appKey: ingestKey, storageDirectory: folder))
            tracker.identify("user-42")
            tracker.track("bill_created", ["amount": 12.5, "note": "lunch"])
            tracker.screen("Home")
            let report = await tracker.flush()  // sent, retried, dropped (by reason), pending

            #expect(report.sent == 3)  // and app_installed, recorded at the first launch
            // A test is a debug build: its events are kept apart from the app's production events.
            #expect(try await live.storedCount(created, debug: true) == 3)
            #expect(try await live.storedCount(created) == 0)
        }
    }
}

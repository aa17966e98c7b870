import Foundation
import Testing

@testable import TallyTracker

#if canImport(SwiftUI)
    import SwiftUI
#endif

// The README's tracking examples beyond the first (which runs against a live collector in
// the server's ReadmeExampleTracker), verbatim; ComponentryTests'
// `readmeExamplesAreCompiledByTests` fails when they drift apart.

@Suite("README tracking examples")
struct ReadmeExampleTracking {
    @Test func configurationExample() async throws {
        try await withTemporaryDirectory { folder in
            let (server, ingestKey, transport) = (URL(string: "https://tally.example")!, "ik_readme", FakeTransport())

            var configuration = Tracker.Configuration(endpoint: server, appKey: ingestKey, storageDirectory: folder)
            configuration.transport = transport
            configuration.sessionTimeout = 10 * 60  // default 30 minutes
            configuration.tracksAppLifecycle = false  // no app_installed, app_updated, app_opened, app_backgrounded
            configuration.isDebug = false  // default: true in Debug builds
            let tracker = try Tracker(configuration: configuration)

            tracker.track("a")
            _ = await tracker.flush()
            #expect(transport.requests.flatMap(eventObjects(in:)).map { $0["name"] as? String } == ["a"])
        }
    }

    @Test func identityExample() async throws {
        try await withTemporaryDirectory { folder in
            let transport = FakeTransport()
            let tracker = try Tracker(configuration: testConfiguration(folder, transport: transport))

            let anonymous = tracker.anonymousID  // the user_id until identify
            tracker.identify("user-42", properties: ["plan": "pro"])  // with properties, also an identify event: the user's
            tracker.register(["source": "ad"])  // super-properties, on every later event
            tracker.reset()  // a new anonymous id, no user or super-properties, a new session
            tracker.optOut()
            tracker.optIn()

            #expect(tracker.anonymousID != anonymous)
            tracker.track("a")
            _ = await tracker.flush()
            let event = try #require(transport.requests.flatMap(eventObjects(in:)).first)
            #expect(event["user_id"] as? String == tracker.anonymousID)
            #expect(event["properties"] as? [String: String] == [:])
        }
    }

    #if canImport(SwiftUI)
        struct BillsView: View {
            var body: some View {
                Text("Lunch, 12.50").trackScreen("Bills")
            }
        }

        @MainActor @Test func swiftUIExample() async throws {
            try await withTemporaryDirectory { folder in
                let tracker = try Tracker(configuration: testConfiguration(folder, transport: FakeTransport()))
                let root = BillsView().environment(\.tracker, tracker)  // once, at the root
                _ = root
            }
        }
    #endif
}

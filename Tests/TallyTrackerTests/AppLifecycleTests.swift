import Foundation
import Testing

@testable import TallyTracker

@Suite("App lifecycle")
struct AppLifecycleTests {
    @Test("Coming to the foreground and leaving it are events; 30 minutes in the background start a new session")
    func foregroundAndBackground() async throws {
        try await withTemporaryDirectory { directory in
            let transport = FakeTransport()
            let clock = ManualClock()
            var configuration = testConfiguration(directory, transport: transport, clock: clock)
            configuration.tracksAppLifecycle = true
            let center = configuration.notificationCenter
            let tracker = try Tracker(configuration: configuration)
            center.post(name: AppLifecycle.didBecomeActive, object: nil)
            center.post(name: AppLifecycle.didBecomeActive, object: nil)  // still active: not opened again
            tracker.track("a")
            center.post(name: AppLifecycle.didEnterBackground, object: nil)
            clock.advance(minutes: 10)
            center.post(name: AppLifecycle.didBecomeActive, object: nil)  // 10 minutes away: same session
            center.post(name: AppLifecycle.didEnterBackground, object: nil)
            clock.advance(minutes: 20)
            tracker.track("refreshed")  // an event in the background does not make the app active
            clock.advance(minutes: 15)
            center.post(name: AppLifecycle.didBecomeActive, object: nil)  // 35 minutes away: new session
            _ = await tracker.flush()

            let events = transport.requests.flatMap(eventObjects(in:))
            let names = events.map { $0["name"] as? String }
            let sessions = events.map { $0["session_id"] as? String }
            #expect(
                names == [
                    "app_installed", "app_opened", "a", "app_backgrounded", "app_opened", "app_backgrounded", "refreshed", "app_opened",
                ])
            #expect(sessions.dropLast().allSatisfy { $0 == sessions.first })
            #expect(sessions.last != sessions.first)
        }
    }

    @Test("app_installed on the first launch, app_updated with previous_version on a new version's, nothing in between")
    func installedAndUpdated() async throws {
        try await withTemporaryDirectory { directory in
            func launch(version: String, lifecycle: Bool = true) async throws -> [[String: Any]] {
                let transport = FakeTransport()
                var configuration = testConfiguration(directory, transport: transport)
                configuration.appVersion = version
                configuration.tracksAppLifecycle = lifecycle
                _ = try await Tracker(configuration: configuration).flush()
                return transport.requests.flatMap(eventObjects(in:))
            }
            let installed = try await launch(version: "1.0")
            #expect(installed.map { $0["name"] as? String } == ["app_installed"])
            #expect(try await launch(version: "1.0").isEmpty)
            let updated = try await launch(version: "1.1")
            #expect(updated.map { $0["name"] as? String } == ["app_updated"])
            #expect(updated.first?["app_version"] as? String == "1.1")
            #expect((updated.first?["properties"] as? [String: String]) == ["previous_version": "1.0"])
            #expect(try await launch(version: "1.1").isEmpty)
        }
    }

    @Test("An install that ran before lifecycle events were on is not reported as new")
    func existingInstallIsNotNew() async throws {
        try await withTemporaryDirectory { directory in
            var configuration = testConfiguration(directory, transport: FakeTransport())
            _ = try Tracker(configuration: configuration)
            let transport = FakeTransport()
            configuration = testConfiguration(directory, transport: transport)
            configuration.tracksAppLifecycle = true
            _ = try await Tracker(configuration: configuration).flush()
            #expect(transport.requests.isEmpty)
        }
    }

    @Test("A released tracker stops observing: it is freed, and later notifications record nothing")
    func observersEndWithTheTracker() async throws {
        try await withTemporaryDirectory { directory in
            var configuration = testConfiguration(directory, transport: FakeTransport(otherwise: .networkError))
            configuration.tracksAppLifecycle = true
            let center = configuration.notificationCenter
            weak var released: Tracker?
            do {
                let tracker = try Tracker(configuration: configuration)
                released = tracker
                center.post(name: AppLifecycle.didBecomeActive, object: nil)
            }
            #expect(released == nil)
            center.post(name: AppLifecycle.didEnterBackground, object: nil)
            center.post(name: AppLifecycle.didBecomeActive, object: nil)
            try await Task.sleep(seconds: 0.5)  // time for a leftover observer's write to land

            let transport = FakeTransport()
            configuration = testConfiguration(directory, transport: transport)
            _ = try await Tracker(configuration: configuration).flush()
            #expect(transport.requests.flatMap(eventObjects(in:)).map { $0["name"] as? String } == ["app_installed", "app_opened"])
        }
    }

    @Test("Lifecycle tracking can be turned off")
    func turnedOff() async throws {
        try await withTemporaryDirectory { directory in
            let transport = FakeTransport()
            let configuration = testConfiguration(directory, transport: transport)
            let tracker = try Tracker(configuration: configuration)
            configuration.notificationCenter.post(name: AppLifecycle.didBecomeActive, object: nil)
            tracker.track("a")
            _ = await tracker.flush()
            #expect(transport.requests.flatMap(eventObjects(in:)).map { $0["name"] as? String } == ["a"])
        }
    }
}

import Foundation
import TallyEvent
import TallyStore
import Testing

@testable import TallyApp

/// `tally serve`'s pruner: it prunes when it starts, and again each interval, until cancelled.
@Suite struct RawEventPrunerTests {
    @Test func itPrunesAtStartAndAgainEachInterval() async throws {
        let (store, created) = try await TallyApplicationTests.makeStore()
        let app = created.app.id
        _ = try await store.apps.update(app, acceptedEventAge: 86_400, rawRetention: .days(2))
        let old = Date().addingTimeInterval(-5 * 86_400)
        func oldEvents() -> [Event] { (0..<3).map { Event(id: UUID(), name: "open", timestamp: old, userID: "u\($0)") } }
        func kept() async throws -> Int {
            var count = 0
            for try await _ in store.events.export(app: app, from: .distantPast, to: .distantFuture) { count += 1 }
            return count
        }
        try await store.events.insert(oldEvents(), app: app)
        let running = Task { await RawEventPruner(store: store, interval: .milliseconds(50)).run() }
        defer { running.cancel() }
        for round in 0..<2 {
            var waited = 0
            while try await kept() > 0, waited < 200 {
                try await Task.sleep(for: .milliseconds(25))
                waited += 1
            }
            #expect(try await kept() == 0, "round \(round)")
            // Events stored after a round go at a later one.
            try await store.events.insert(oldEvents(), app: app)
        }
        running.cancel()
        await running.value
        #expect(try await store.apps.app(id: app)?.rawEventsKeptSince != nil)
    }
}

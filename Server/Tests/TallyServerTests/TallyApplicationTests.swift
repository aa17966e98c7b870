import Componentry
import Foundation
import HummingbirdTesting
import TallyEvent
import TallyHTTP
import TallyStore
import Testing

@testable import TallyApp

/// `tally serve`'s application: the collector's and the dashboard's routes on one
/// application, and the store's commits on the bus the dashboard hears (the seeds' E1 path).
@Suite struct TallyApplicationTests {
    /// A store on a new SQLite file, with one app.
    static func makeStore() async throws -> (EventStore, NewApp) {
        let store = try EventStore(path: FileManager.default.temporaryDirectory.appendingPathComponent("tally-app-\(UUID()).sqlite").path)
        return (store, try await store.apps.create(name: "Demo"))
    }

    @Test func anIngestedBatchReachesTheBusAsTheStoresCommit() async throws {
        let (store, app) = try await Self.makeStore()
        let application = try await TallyApplication(store: store, settings: ServerSettings())
        let commits = application.bus.events(of: EventsCommitted.self)
        try await application.build().test(.live) { client in
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
            #expect(try await client.execute(uri: "/login", method: .get).status == .ok, "the dashboard's routes beside the API's")
            let answer = try await client.execute(
                uri: "/v1/events", method: .post, headers: [.init("X-App-Key")!: app.ingestKey], body: .init(data: Batch.body([Batch.event()])))
            #expect(answer.status == .ok)
            var iterator = commits.makeAsyncIterator()
            #expect(await iterator.next() == EventsCommitted(app: app.app.id, count: 1))
        }
    }

    /// A bus subscriber that takes its time never holds up the answer to the client: here it
    /// waits for the answer itself, which would deadlock if it ran on the request's path. The
    /// wait ends after 2 minutes only to report that deadlock: it blocks one of the cooperative
    /// pool's threads, two on a 2-core machine, and with the other one busy with the rest of
    /// the suite an answer took more than 10 s to come.
    @Test func aSlowSubscriberNeverDelaysTheAnswer() async throws {
        let (store, app) = try await Self.makeStore()
        let application = try await TallyApplication(store: store, settings: ServerSettings())
        let answered = DispatchSemaphore(value: 0)
        let (outcomes, outcome) = AsyncStream.makeStream(of: DispatchTimeoutResult.self)
        let subscription = application.bus.on(EventsCommitted.self).handle { _ in
            outcome.yield(answered.wait(timeout: .now() + 120))
        }
        defer { subscription.dispose() }
        try await application.build().test(.live) { client in
            let answer = try await client.execute(
                uri: "/v1/events", method: .post, headers: [.init("X-App-Key")!: app.ingestKey], body: .init(data: Batch.body([Batch.event()])))
            answered.signal()
            #expect(answer.status == .ok)
            #expect(await outcomes.first { _ in true } == .success, "the subscriber waited for an answer that waited for it")
        }
    }
}

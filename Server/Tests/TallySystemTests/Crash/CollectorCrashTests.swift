import Foundation
import SeededRandom
import TallyEvent
import TallyStore
import TallyStoreTesting
import Testing

/// Acknowledged events survive crashes: collectors killed with SIGKILL and a PostgreSQL server
/// stopped like a power cut, 20 times each, while SDKs in child processes keep tracking and
/// uploading. After every crash, each event a collector had acknowledged is stored and
/// counted; at the end, the SDKs have delivered everything else, and every tracked event is
/// stored and counted exactly once.
@Suite("Crashes under sustained ingest", .serialized, .systemTests)
struct CollectorCrashTests {
    static let crashes = 20
    static let postgres = TestDatabase.all.contains(.postgres)

    @Test(arguments: TestDatabase.all)
    func acknowledgedEventsSurviveTwentyCollectorKills(database: TestDatabase) async throws {
        let url = try await database.makeDatabase()
        defer { database.removeDatabase(url) }
        let (store, app, key) = try await Self.app(on: url)
        let collector = try await Collector(database: url)
        let clients = try await SDKClient.start(3, collector: collector.url, key: key)
        try await Self.crash(under: clients, seed: 15) { _ in
            await collector.kill()
            try await Self.expectAcknowledgedStoredOnce(clients, in: store, app: app)
            try await collector.start()
        }
        try await Self.expectEverythingDeliveredOnce(clients, in: store, app: app)
        await collector.kill()
    }

    @Test(.enabled(if: postgres, "needs PostgreSQL (.ci/run installs it)"))
    func acknowledgedEventsSurviveTwentyPostgresCrashes() async throws {
        try await ThrowawayPostgres.with { server in
            let (store, app, key) = try await Self.app(on: server.url)
            let collector = try await Collector(database: server.url)
            let clients = try await SDKClient.start(3, collector: collector.url, key: key)
            try await Self.crash(under: clients, seed: 16, waiting: .seconds(30)) { _ in
                let acknowledged = clients.acknowledged
                try await server.crash()
                try await server.start()
                try await Self.expectStoredOnce(atLeast: acknowledged, in: store, app: app)
            }
            try await Self.expectEverythingDeliveredOnce(clients, in: store, app: app)
            await collector.kill()
        }
    }

    @Test(.enabled(if: postgres, "needs PostgreSQL (.ci/run installs it)"))
    func acknowledgedEventsSurviveKillsOfOneOfTwoCollectors() async throws {
        let url = try await TestDatabase.postgres.makeDatabase()
        let (store, app, key) = try await Self.app(on: url)
        let collectors = [try await Collector(database: url), try await Collector(database: url)]
        let clients =
            try await SDKClient.start(2, collector: collectors[0].url, key: key)
            + SDKClient.start(2, collector: collectors[1].url, key: key)
        try await Self.crash(under: clients, seed: 17) { crash in
            let victim = collectors[crash % 2]
            await victim.kill()
            try await Self.expectAcknowledgedStoredOnce(clients, in: store, app: app)
            try await victim.start()
        }
        try await Self.expectEverythingDeliveredOnce(clients, in: store, app: app)
        for collector in collectors { await collector.kill() }
    }

    /// Runs `crash` (given its round) ``crashes`` times, each once the collectors have
    /// acknowledged 100 more events to `clients` (within `limit`) and after a pause of up to
    /// 200 ms drawn from `seed`, so crashes land at varied points of the ingest.
    static func crash(
        under clients: [SDKClient], seed: UInt64, waiting limit: Duration = .seconds(60), _ crash: (Int) async throws -> Void
    ) async throws {
        var random = SplitMix64(seed: seed)
        for round in 0..<crashes {
            try await clients.waitForAcknowledgements(100, within: limit)
            try await Task.sleep(for: .milliseconds(random.next() % 200))
            try await crash(round)
        }
    }

    /// A store on `database` with a new app, and the app's ingest key.
    static func app(on database: String) async throws -> (EventStore, AppID, String) {
        let store = try await EventStore(database: database)
        let app = try await store.apps.create(name: "Crash test")
        return (store, app.app.id, app.ingestKey)
    }

    /// Every event acknowledged to `clients` so far is stored and counted once.
    static func expectAcknowledgedStoredOnce(_ clients: [SDKClient], in store: EventStore, app: AppID) async throws {
        try await expectStoredOnce(atLeast: clients.acknowledged, in: store, app: app)
    }

    /// At least `acknowledged` events are counted in the day metrics (an event stored twice
    /// would be counted twice: the final check finds it).
    static func expectStoredOnce(atLeast acknowledged: Int, in store: EventStore, app: AppID) async throws {
        let counted = try await countedEvents(in: store, app: app)
        #expect(counted >= acknowledged, "\(acknowledged - counted) acknowledged events are lost")
    }

    /// Stops the clients' tracking, waits until they delivered all they tracked, and expects
    /// exactly those events stored and counted, each once.
    static func expectEverythingDeliveredOnce(_ clients: [SDKClient], in store: EventStore, app: AppID) async throws {
        for client in clients { try await client.finish() }
        let tracked = clients.flatMap(\.tracked)
        var stored: [String] = []
        for try await event in store.events.export(app: app, from: .distantPast, to: .distantFuture) {
            stored.append(event.id.uuidString.lowercased())
        }
        #expect(clients.map(\.dropped) == clients.map { _ in 0 })
        #expect(clients.acknowledged == tracked.count)
        #expect(stored.count == tracked.count)
        #expect(Set(stored) == Set(tracked))
        #expect(try await countedEvents(in: store, app: app) == tracked.count)
        print("\(tracked.count) events tracked by \(clients.count) SDK processes, each stored and counted once")
    }

    /// The app's `crash_test` events in the day metrics of today and yesterday (UTC): the
    /// count the rollups keep, exact and cheap to read.
    static func countedEvents(in store: EventStore, app: AppID) async throws -> Int {
        var counted = 0
        for day in [Date().addingTimeInterval(-86_400), Date()] {
            let date = day.formatted(Date.ISO8601FormatStyle().year().month().day())
            counted += try await store.metrics.day(ReadScope(app: app, day: CalendarDay(date)!)).events["crash_test", default: 0]
        }
        return counted
    }
}

import Foundation
import Hummingbird
import Locking
import Logging
import ServiceLifecycle
import TallyServer
import TallyStore
import TallyStoreTesting
import Testing

/// The delay from a rule's evaluation time to its webhook receiving the POST, through the
/// services `tally serve` runs (`AlertEvaluator.run()`, `WebhookDeliverer.run()`) over a SQLite
/// store and loopback HTTP, printed per round. Their clock runs ahead of the system's so that
/// each round's hour starts two seconds in. The target (every POST within a minute) is
/// measured by `Benchmarks/Tools/AlertLatency` in release; this test requires each POST to come.
@Suite("Alert latency", .serialized, .systemTests)
struct AlertLatencyTests {
    /// The system's clock shifted by an offset the test moves between rounds; its sleeps poll
    /// every 5 ms, so a shift while a service sleeps takes effect.
    final class ShiftedClock: AlertClock {
        let offset = Locked<TimeInterval>(0)
        var now: Date { Date().addingTimeInterval(offset.withLock { $0 }) }
        func sleep(until date: Date) async throws {
            while now < date { try await Task.sleep(for: .milliseconds(5)) }
        }
    }

    actor Arrivals {
        var times: [Date] = []
        func add(_ date: Date) { times.append(date) }
    }

    @Test func everyFiringReachesItsWebhookAndTheDelayIsPrinted() async throws {
        let database = try await TestDatabase.sqlite.makeDatabase()
        defer { TestDatabase.sqlite.removeDatabase(database) }
        let store = try await EventStore(database: database)
        let clock = ShiftedClock()
        let arrivals = Arrivals()
        let router = Router()
        router.post("/hook") { _, _ -> Response in
            await arrivals.add(clock.now)
            return Response(status: .ok)
        }
        let logger = {
            var logger = Logger(label: "alert-latency")
            logger.logLevel = .critical
            return logger
        }()
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let receiver = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { portContinuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
        let group = ServiceGroup(services: [receiver], gracefulShutdownSignals: [], logger: logger)
        let serving = Task { try await group.run() }
        var portIterator = ports.makeAsyncIterator()
        let port = try #require(await portIterator.next())

        let app = try await store.apps.create(name: "Latency", timeZone: "Asia/Kathmandu").app
        try await store.alerts.save(
            try AlertRule(name: "always", metric: .headline(.dau), condition: .above(-1), webhook: "http://127.0.0.1:\(port)/hook", secret: "s"),
            app: app.id)
        let schedule = AlertSchedule(timeZone: TimeZone(identifier: app.timeZone)!)
        let services = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { try? await AlertEvaluator(store: store, clock: clock, logger: logger).run() }
                group.addTask {
                    try? await WebhookDeliverer(
                        store: store, transport: HTTPWebhookTransport(allowsPrivateAddresses: true), clock: clock, logger: logger
                    ).run()
                }
            }
        }
        // The pass at start evaluates the hour that began before it.
        while await arrivals.times.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        var delays: [Double] = []
        for round in 1...8 {
            let next = schedule.next(after: clock.now)
            let shift = next.timeIntervalSince(clock.now) - 2
            clock.offset.withLock { $0 += shift }
            let before = await arrivals.times.count
            let deadline = Date().addingTimeInterval(90)
            while await arrivals.times.count == before, Date() < deadline { try await Task.sleep(for: .milliseconds(2)) }
            let times = await arrivals.times
            #expect(times.count == before + 1, "round \(round): one POST per evaluation time")
            guard let arrived = times.last, times.count > before else { continue }
            delays.append(arrived.timeIntervalSince(next))
            print(String(format: "alert latency, round %d: POST received %.3f s after the evaluation time", round, delays.last!))
        }
        services.cancel()
        await group.triggerGracefulShutdown()
        _ = await serving.result
        let sorted = delays.sorted()
        if !sorted.isEmpty {
            print(
                String(
                    format: "alert latency: %d rounds, median %.3f s, max %.3f s (target: under 60 s)", sorted.count, sorted[sorted.count / 2],
                    sorted.last!))
        }
    }
}

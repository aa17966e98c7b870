// The delay between an alert rule's evaluation time and its webhook receiving the POST, through
// the services `tally serve` runs: `AlertEvaluator.run()` and `WebhookDeliverer.run()` over a
// SQLite store, POSTing over loopback HTTP to a Hummingbird receiver.
//
// The services' clock runs ahead of the system's so that each round's evaluation time (the
// start of a local hour) comes two seconds after the round starts: rounds take seconds, not
// hours. The target: every POST within a minute of its evaluation time.
//
//     swift run -c release AlertLatency [rounds]
import Foundation
import Hummingbird
import Locking
import Logging
import TallyServer
import TallyStore

/// The system's clock shifted by an offset the tool moves between rounds; its sleeps poll
/// every 5 ms, so a shift while a service sleeps takes effect.
final class ShiftedClock: AlertClock {
    let offset = Locked<TimeInterval>(0)
    var now: Date { Date().addingTimeInterval(offset.withLock { $0 }) }
    func sleep(until date: Date) async throws {
        while now < date { try await Task.sleep(for: .milliseconds(5)) }
    }
}

/// When each POST arrived, on the shifted clock.
actor Arrivals {
    var times: [Date] = []
    func add(_ date: Date) { times.append(date) }
}

let rounds = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 10
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("alert-latency-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let store = try EventStore(path: folder.appendingPathComponent("tally.sqlite").path)
let clock = ShiftedClock()
let arrivals = Arrivals()

let router = Router()
router.post("/hook") { _, _ -> Response in
    await arrivals.add(clock.now)
    return Response(status: .ok)
}
var logger = Logger(label: "alert-latency")
logger.logLevel = .critical
let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
let receiver = Application(
    router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
    onServerRunning: { portContinuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
let serving = Task { try await receiver.runService() }
var port = 0
for await bound in ports {
    port = bound
    break
}

let app = try await store.apps.create(name: "Latency", timeZone: "Asia/Kathmandu").app
try await store.alerts.save(
    try AlertRule(name: "always", metric: .headline(.dau), condition: .above(-1), webhook: "http://127.0.0.1:\(port)/hook", secret: "s"),
    app: app.id)
let schedule = AlertSchedule(timeZone: TimeZone(identifier: app.timeZone)!)
var quiet = logger
quiet.logLevel = .error
let evaluator = AlertEvaluator(store: store, clock: clock, logger: quiet)
// The receiver is on loopback, which webhooks reach only when private addresses are allowed.
let deliverer = WebhookDeliverer(store: store, transport: HTTPWebhookTransport(allowsPrivateAddresses: true), clock: clock, logger: quiet)
let services = Task {
    await withTaskGroup(of: Void.self) { group in
        group.addTask { try? await evaluator.run() }
        group.addTask { try? await deliverer.run() }
    }
}
// The pass at start evaluates the hour that began before it: wait for its POST.
while await arrivals.times.isEmpty { try await Task.sleep(for: .milliseconds(10)) }

var delays: [Double] = []
for round in 1...rounds {
    // The next evaluation time, two seconds from now.
    let next = schedule.next(after: clock.now)
    let shift = next.timeIntervalSince(clock.now) - 2
    clock.offset.withLock { $0 += shift }
    let before = await arrivals.times.count
    let deadline = Date().addingTimeInterval(90)
    while await arrivals.times.count == before, Date() < deadline { try await Task.sleep(for: .milliseconds(2)) }
    guard let arrived = await arrivals.times.last, await arrivals.times.count > before else {
        print("round \(round): no POST within 90 s")
        continue
    }
    let delay = arrived.timeIntervalSince(next)
    delays.append(delay)
    print(String(format: "round %2d: evaluation at %@, POST received %.3f s later", round, next.formatted(.iso8601), delay))
}
services.cancel()
serving.cancel()
let sorted = delays.sorted()
if !sorted.isEmpty {
    print(
        String(
            format: "%d rounds: median %.3f s, max %.3f s (target: under 60 s)", sorted.count, sorted[sorted.count / 2], sorted.last!))
}

// Pruning a month of raw events while ingest goes on, on a copy of the 60-day SQLite fixture
// (10.57M events): issue 32's retention target (the prune under 2 minutes; ingest's p99
// acknowledgement within 100 ms of a run without pruning).
//
// The fixture is copied, never opened in place (opening migrates it). The app gets an accepted
// event age of a day and a retention of two days, and `pruneRawEvents(now:)` runs at
// 2026-02-02T00:00Z: the horizon is 2026-01-31, so days 0 to 29, about 5.3M events, go. First
// `BASELINE_SECONDS` seconds (20 by default) of ingest alone, then the same ingest during the prune:
// `CLIENTS` clients (4), each sending a batch of `BATCH` events (50) every `PAUSE_MS`
// milliseconds (25) and waiting for its acknowledgement (durable: the WAL synced). Printed: the
// prune's time, events deleted, batches and longest batch (the write lock held), and per phase
// the acknowledgements' p50, p99 and maximum.
//
//     swift run -c release PruneWhileIngesting
//     COPY=/work/retention-fixture.sqlite swift run -c release PruneWhileIngesting
import Foundation
import PipelineWorkload
import Synchronization
import TallyEvent
import TallyStore

let environment = ProcessInfo.processInfo.environment
let seconds = environment["BASELINE_SECONDS"].flatMap(Double.init) ?? 20
let clients = environment["CLIENTS"].flatMap(Int.init) ?? 4
let batchSize = environment["BATCH"].flatMap(Int.init) ?? 50
let pause = Duration.milliseconds(environment["PAUSE_MS"].flatMap(Int.init) ?? 25)

let fixture = Fixtures.path(days: 60)
guard FileManager.default.fileExists(atPath: fixture + ".done") else {
    fatalError("no finished fixture at \(fixture): run PipelineBenchmarks or TimelineOnFixture once to build it")
}
let copy =
    environment["COPY"] ?? FileManager.default.temporaryDirectory.appendingPathComponent("tally-prune-\(UUID().uuidString).sqlite").path
for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) }
defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) } }
let copyTime = try ContinuousClock().measure {
    for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: fixture + suffix) {
        try FileManager.default.copyItem(atPath: fixture + suffix, toPath: copy + suffix)
    }
}
print("copied \(fixture) to \(copy) in \(copyTime)")

let store = try EventStore(path: copy)
let app = try await store.apps.all()[0].id
_ = try await store.apps.update(app, acceptedEventAge: 86_400, rawRetention: .days(2))
let now = Fixtures.start.addingTimeInterval(32 * 86_400)

/// Set once a phase ends; read by its clients before each batch.
final class StopFlag: Sendable {
    private let value = Atomic(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
}

/// Acknowledgement times, in milliseconds, of every batch sent until `done` is set.
func ingest(until done: StopFlag, phase: Int) async throws -> [Double] {
    try await withThrowingTaskGroup(of: [Double].self) { group in
        for client in 0..<clients {
            group.addTask {
                var latencies: [Double] = []
                var sent = 0
                let clock = ContinuousClock()
                while !done.isSet {
                    let base = Fixtures.start.addingTimeInterval(58 * 86_400 + Double(phase * 20_000 + client * 5_000))
                    let events = (0..<batchSize).map { index in
                        Event(
                            id: UUID(), name: ["screen_view", "tap", "open"][index % 3],
                            timestamp: base.addingTimeInterval(Double(sent) * 0.01 + Double(index) * 0.001),
                            userID: "user-\(Int.random(in: 0..<20_000))", sessionID: "s-\(client)-\(sent / 100)", appVersion: "3.3.0",
                            platform: "iOS", properties: index % 3 == 0 ? ["screen": .string("screen_\(index % 25)")] : [:])
                    }
                    let start = clock.now
                    let result = try await store.events.insert(events, app: app)
                    latencies.append(start.duration(to: clock.now).milliseconds)
                    precondition(result.accepted == events.count, "an acknowledged batch lost events")
                    sent += 1
                    try await Task.sleep(for: pause)
                }
                return latencies
            }
        }
        var all: [Double] = []
        for try await latencies in group { all += latencies }
        return all.sorted()
    }
}

func summary(_ latencies: [Double], over duration: Duration) -> String {
    func at(_ fraction: Double) -> Double { latencies[min(latencies.count - 1, Int(Double(latencies.count) * fraction))] }
    return String(
        format: "%6d batches (%7.0f events/s)  ack p50 %6.2f ms  p99 %7.2f ms  max %7.2f ms", latencies.count,
        Double(latencies.count * batchSize) / duration.seconds, at(0.5), at(0.99), latencies.last ?? 0)
}

// Ingest alone.
let baselineDone = StopFlag()
let clock = ContinuousClock()
let baselineStart = clock.now
async let baseline = ingest(until: baselineDone, phase: 0)
try await Task.sleep(for: .seconds(seconds))
baselineDone.set()
let baselineLatencies = try await baseline
let baselineDuration = baselineStart.duration(to: clock.now)

// The same ingest during the prune.
let pruneDone = StopFlag()
let pruneStart = clock.now
async let during = ingest(until: pruneDone, phase: 1)
let pruning: RawEventPruning
do {
    pruning = try await store.dataRetention.prune(now: now)
    pruneDone.set()
} catch {
    pruneDone.set()
    throw error
}
let pruneDuration = pruneStart.duration(to: clock.now)
let duringLatencies = try await during

print(
    String(
        format: "prune: %.1f s, %d events deleted (%.0f events/s), %d batches, longest batch %.2f ms", pruneDuration.seconds,
        pruning.deletedEvents, Double(pruning.deletedEvents) / pruneDuration.seconds, pruning.batches, pruning.longestBatch.milliseconds))
print("ingest alone:       " + summary(baselineLatencies, over: baselineDuration))
print("ingest during prune:" + summary(duringLatencies, over: pruneDuration))
print("\(clients) clients, batches of \(batchSize) events every \(pause)")

extension Duration {
    var milliseconds: Double { seconds * 1e3 }
}

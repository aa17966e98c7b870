// Deleting a heavy user while another app ingests: issue 45's target (no acknowledgement of
// the other app's ingest waits more than 100 ms while a user of 100,000 events is deleted).
//
// A copy of the 6-day SQLite fixture (20k users, 1.05M events) gets a user with `EVENTS`
// events (100,000) spread over its 6 days, folded into the bucket logs by 33 later commits, as
// a live app's traffic folds them, and a second app. First `BASELINE_SECONDS` (10) of the
// second app's ingest alone, then the same ingest while the user is deleted: `CLIENTS` clients
// (4), each sending a batch of `BATCH` events (50) every `PAUSE_MS` milliseconds (25) and
// waiting for its acknowledgement (durable: the WAL synced). Printed: the deletion's time, and
// per phase the acknowledgements' p50, p99 and maximum.
//
//     swift run -c release DeletionBesideIngest
//     EVENTS=10000 swift run -c release DeletionBesideIngest
import Foundation
import PipelineWorkload
import Synchronization
import TallyEvent
import TallyStore

let environment = ProcessInfo.processInfo.environment
let seconds = environment["BASELINE_SECONDS"].flatMap(Double.init) ?? 10
let clients = environment["CLIENTS"].flatMap(Int.init) ?? 4
let batchSize = environment["BATCH"].flatMap(Int.init) ?? 50
let pause = Duration.milliseconds(environment["PAUSE_MS"].flatMap(Int.init) ?? 25)
let heavyEvents = environment["EVENTS"].flatMap(Int.init) ?? 100_000
let days = 6

let fixture = Fixtures.path(days: days)
guard FileManager.default.fileExists(atPath: fixture + ".done") else {
    fatalError("no finished fixture at \(fixture): run TimelineOnFixture with DAYS=6 once to build it")
}
let copy = FileManager.default.temporaryDirectory.appendingPathComponent("tally-deletion-\(UUID().uuidString).sqlite").path
defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) } }
for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: fixture + suffix) {
    try FileManager.default.copyItem(atPath: fixture + suffix, toPath: copy + suffix)
}
let store = try EventStore(path: copy)
let app = try await store.apps.all()[0].id
let other = try await store.apps.create(name: "Other", acceptedEventAge: 3_650 * 86_400).app.id

// The heavy user, then 33 commits with an event in each of its buckets: each bucket's new
// events are a tail of its log until it has 32, so these fold the user's events into the logs.
let heavy = "user-heavy"
let names = ["screen_view", "tap", "open", "search", "add_to_cart"]
let span = Double(days) * 86_400
let heavySent = (0..<heavyEvents).map { index in
    Event(
        id: UUID(), name: names[index % names.count], timestamp: Fixtures.start.addingTimeInterval(Double(index) * span / Double(heavyEvents)),
        userID: heavy, sessionID: "s-heavy-\(index / 40)", appVersion: index % 3 == 0 ? "3.3.0" : "3.2.0", platform: "iOS",
        properties: index % names.count == 0 ? ["screen": .string("screen_\(index % 25)")] : [:])
}
for chunk in stride(from: 0, to: heavySent.count, by: 1_000) {
    _ = try await store.events.insert(Array(heavySent[chunk..<min(chunk + 1_000, heavySent.count)]), app: app)
}
let buckets = Set(heavySent.map { Int($0.timestamp.timeIntervalSince1970) / 900 })
for round in 0..<33 {
    _ = try await store.events.insert(
        buckets.map { bucket in
            Event(
                id: UUID(), name: "open", timestamp: Date(timeIntervalSince1970: Double(bucket * 900 + 450)), userID: "user-filler-\(round)",
                appVersion: "3.3.0", platform: "iOS")
        }, app: app)
}

/// Set once a phase ends; read by its clients before each batch.
final class StopFlag: Sendable {
    private let value = Atomic(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
}

/// Acknowledgement times, in milliseconds, of the other app's batches sent until `done` is set.
func ingest(until done: StopFlag) async throws -> [Double] {
    try await withThrowingTaskGroup(of: [Double].self) { group in
        for client in 0..<clients {
            group.addTask {
                var latencies: [Double] = []
                let clock = ContinuousClock()
                while !done.isSet {
                    let events = (0..<batchSize).map { index in
                        Event(
                            id: UUID(), name: names[index % names.count], timestamp: Date(), userID: "other-\(client)-\(index % 7)",
                            appVersion: "1.0", platform: "iOS")
                    }
                    let start = clock.now
                    let result = try await store.events.insert(events, app: other)
                    latencies.append(start.duration(to: clock.now).seconds * 1e3)
                    precondition(result.accepted == events.count, "an acknowledged batch lost events")
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

func summary(_ latencies: [Double]) -> String {
    func at(_ fraction: Double) -> Double { latencies[min(latencies.count - 1, Int(Double(latencies.count) * fraction))] }
    return String(format: "%6d batches  ack p50 %6.2f ms  p99 %7.2f ms  max %7.2f ms", latencies.count, at(0.5), at(0.99), latencies.last ?? 0)
}

let alone = StopFlag()
async let baseline = ingest(until: alone)
try await Task.sleep(for: .seconds(seconds))
alone.set()
let baselineLatencies = try await baseline

let deleting = StopFlag()
async let during = ingest(until: deleting)
try await Task.sleep(for: .seconds(1))
let clock = ContinuousClock()
let start = clock.now
let deletion: UserDeletion
do {
    deletion = try await store.userData.delete(app: app, user: heavy, by: "bench")
    try await Task.sleep(for: .seconds(1))
    deleting.set()
} catch {
    deleting.set()
    throw error
}
let duringLatencies = try await during
guard deletion.events == heavyEvents, try await store.users.search(app: app, prefix: heavy).isEmpty else {
    fatalError("the deletion left the user: \(deletion.events) events deleted")
}
print(String(format: "deleted a user with %d events in %.2f s (and the second after it)", deletion.events, (clock.now - start).seconds - 1))
print("other app's ingest alone:           " + summary(baselineLatencies))
print("other app's ingest during deletion: " + summary(duringLatencies) + "   (target: max under 100 ms)")
print("\(clients) clients, batches of \(batchSize) events every \(pause)")

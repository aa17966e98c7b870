// Deleting one user's data on the pipeline fixture: issue 32's target (under 1 s for a user
// with 10,000 events, on both databases).
//
// A copy of the 60-day fixture of 20k users (10.57M events) gets a user with 10,000 events
// spread over its 60 days (about 167 a day, in most of its 5,760 buckets), as TimelineOnFixture
// adds one, then folded into those buckets' logs by later commits; a day's metrics are read
// once (the rollups' pages in the cache, as on a serving store); then the user's deletion is
// timed, and a fixture user's (about 530 events). The run checks that the user is gone and the
// day's users one fewer. With TALLY_BENCH_POSTGRES_URL set, it runs on a copy (`CREATE
// DATABASE … TEMPLATE … STRATEGY FILE_COPY`: a copy of the files, not written through the WAL,
// which kept the checkpointer writing through the run) of the fixture's PostgreSQL database, filled first if the server has
// none.
//
//     COPY=/path/with/room/store.sqlite swift run -c release UserDeletionOnFixture
//     TALLY_BENCH_POSTGRES_URL=postgres://… swift run -c release UserDeletionOnFixture
//     DAYS=6 swift run -c release UserDeletionOnFixture     # the 6-day fixture (1.05M events)
import Foundation
import PipelineWorkload
import TallyEvent
import TallyStore

let environment = ProcessInfo.processInfo.environment
let database = Fixtures.Database.fromEnvironment
let days = environment["DAYS"].flatMap(Int.init) ?? 60

/// Runs `command` with `arguments` and stops the run if it fails.
func shell(_ command: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [command] + arguments
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { fatalError("\(command) failed with status \(process.terminationStatus)") }
}

// The fixture, copied: the deletion changes it. The SQLite file is copied without being
// opened, as opening migrates it.
let store: EventStore
var cleanUp: () throws -> Void = {}
switch database {
case .sqlite:
    guard FileManager.default.fileExists(atPath: Fixtures.path(days: days) + ".done") else {
        fatalError("no \(days)-day fixture at \(Fixtures.path(days: days)): run TimelineOnFixture or the pipeline benchmarks first")
    }
    let copy = URL(
        fileURLWithPath: environment["COPY"]
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("tally-user-deletion-\(UUID().uuidString).sqlite").path)
    for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: Fixtures.path(days: days) + suffix) {
        try? FileManager.default.removeItem(atPath: copy.path + suffix)
        try FileManager.default.copyItem(atPath: Fixtures.path(days: days) + suffix, toPath: copy.path + suffix)
    }
    cleanUp = { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy.path + suffix) } }
    store = try EventStore(path: copy.path)
case .postgres(let server):
    _ = try await Fixtures.store(days: days, on: database)
    var components = URLComponents(string: server)!
    let name = "tally_user_deletion_\(ProcessInfo.processInfo.processIdentifier)"
    try shell(
        "psql",
        ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", server, "-c", "CREATE DATABASE \(name) TEMPLATE tally_fixture_\(days)d STRATEGY FILE_COPY"])
    cleanUp = { try shell("psql", ["-X", "-q", "-d", server, "-c", "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"]) }
    components.path = "/" + name
    store = try await EventStore(database: components.string!)
}
defer { try? cleanUp() }
let app = try await store.apps.all()[0].id

var random = SystemRandomNumberGenerator()
let heavy = "user-heavy"
let names = ["screen_view", "tap", "open", "search", "add_to_cart"]
let events = (0..<10_000).map { index in
    let time = Fixtures.start.addingTimeInterval(Double(index) * Double(days) * 86_400 / 10_000 + Double.random(in: 0..<300, using: &random))
    return Event(
        id: UUID(), name: names[index % names.count], timestamp: time, userID: heavy, sessionID: "s-heavy-\(index / 40)",
        appVersion: index % 3 == 0 ? "3.3.0" : "3.2.0", platform: "iOS",
        properties: index % names.count == 0 ? ["screen": .string("screen_\(index % 25)")] : [:])
}
for chunk in stride(from: 0, to: events.count, by: 1_000) { try await store.events.insert(Array(events[chunk..<chunk + 1_000]), app: app) }
// Each bucket's new events are written as a tail of its log until it has 32: 33 more commits,
// each with an event in every bucket the user is in, fold the user's events into the logs, as
// a live app's later traffic does. (Deleting the user then rewrites those logs.)
let buckets = Set(events.map { Int($0.timestamp.timeIntervalSince1970) / 900 })
for round in 0..<33 {
    let filler = buckets.map { bucket in
        Event(
            id: UUID(), name: "open", timestamp: Date(timeIntervalSince1970: Double(bucket * 900 + 450)), userID: "user-filler-\(round)",
            appVersion: "3.3.0", platform: "iOS")
    }
    try await store.events.insert(filler, app: app)
}

let day = Fixtures.date(days / 2)
let before = try await store.metrics.day(ReadScope(app: app, day: CalendarDay(day)!))
let fixtureUser = try require(try await store.users.search(app: app, prefix: "user-1", limit: 1).first, "no fixture user").id

func timed(_ user: String) async throws -> (seconds: Double, deletion: UserDeletion) {
    var deletion: UserDeletion?
    let time = try await ContinuousClock().measure { deletion = try await store.userData.delete(app: app, user: user, by: "bench") }
    return (time.seconds, deletion!)
}

var folded = 0
let (heavySeconds, heavyDeletion) = try await timed(heavy)
let after = try await store.metrics.day(ReadScope(app: app, day: CalendarDay(day)!))
guard after.dau == before.dau - 1, try await store.users.search(app: app, prefix: heavy).isEmpty, heavyDeletion.events == 10_000 else {
    fatalError("the deletion left the user: DAU \(before.dau) → \(after.dau), \(heavyDeletion.events) events deleted")
}
// The deletion hides the user's events in the logs; the folding (every minute under `tally
// serve`) takes them out, 32 buckets a write.
let foldTime = try await ContinuousClock().measure { folded = try await store.userData.foldRemovals() }
guard try await store.metrics.day(ReadScope(app: app, day: CalendarDay(day)!)) == after else { fatalError("the folding changed the day's metrics") }
let (fixtureSeconds, fixtureDeletion) = try await timed(fixtureUser)
print("database: \(database.name), \(days)-day fixture; other builds may compete for the CPU")
print(String(format: "deleted a user with %6d events in %7.3f s   (target: under 1 s)", heavyDeletion.events, heavySeconds))
print(
    String(
        format: "then folded its events out of %d bucket logs in %.3f s, %.1f ms a write on average", folded, foldTime.seconds,
        foldTime.seconds * 1_000 / Double((folded + 31) / 32)))
print(String(format: "deleted a user with %6d events in %7.3f s   (a fixture user)", fixtureDeletion.events, fixtureSeconds))

/// `#require` for a tool: the value, or the run stops.
func require<T>(_ value: T?, _ message: String = "missing") throws -> T {
    guard let value else { fatalError(message) }
    return value
}

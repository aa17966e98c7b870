// A user's timeline and the search of users, on the pipeline fixture: issue 31's targets.
//
// - Timeline: a copy of the 60-day fixture of 20k users (10.57M events), to which a user with
//   10,000 events (about 167 a day) is added; their newest page of 100 events, a page 5,000
//   events deep, and the newest page under a filter, each the p50 and p95 of 200 reads after a
//   first, whose time is printed too; the very first read, before the bucket logs it reads
//   are cached, is printed alone. A fixture user (about 530 events) is read too.
// - Search: 200,000 users (ids as the fixture's, `user-N`), each with one event; prefixes of
//   1 to 10 characters of random ids, the first 20 users of each, p50 and p95 of 2,000.
//
//     swift run -c release TimelineOnFixture
//     RUNS=1000 swift run -c release TimelineOnFixture
import Foundation
import PipelineWorkload
import TallyEvent
import TallyStore

let environment = ProcessInfo.processInfo.environment
let runs = environment["RUNS"].flatMap(Int.init) ?? 200

/// The time of a first call of `body`, then the p50 and p95 of `runs` more, in milliseconds.
func measure(_ runs: Int, _ body: () async throws -> Void) async throws -> (first: Double, p50: Double, p95: Double) {
    let first = try await ContinuousClock().measure { try await body() }.seconds * 1e3
    var times: [Double] = []
    for _ in 0..<runs { times.append(try await ContinuousClock().measure { try await body() }.seconds * 1e3) }
    times.sort()
    return (first, times[times.count / 2], times[times.count * 95 / 100])
}

func report(_ label: String, _ time: (first: Double, p50: Double, p95: Double), _ detail: String) {
    print(
        String(
            format: "%@ p50 %7.2f ms  p95 %7.2f ms  (first %7.2f ms)   %@", label.padding(toLength: 34, withPad: " ", startingAt: 0), time.p50,
            time.p95, time.first, detail))
}

// The fixture, copied so that the added user stays out of the other benchmarks' fixture.
_ = try await Fixtures.store(days: 60)
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tally-timeline-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: scratch) }
let copy = scratch.appendingPathComponent("store.sqlite")
for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: Fixtures.path(days: 60) + suffix) {
    try FileManager.default.copyItem(atPath: Fixtures.path(days: 60) + suffix, toPath: copy.path + suffix)
}
let store = try EventStore(path: copy.path)
let app = try await store.apps.all()[0].id

var random = SystemRandomNumberGenerator()
let heavy = "user-heavy"
let names = ["screen_view", "tap", "open", "search", "add_to_cart"]
let events = (0..<10_000).map { index in
    let time = Fixtures.start.addingTimeInterval(Double(index) * 60 * 86_400 / 10_000 + Double.random(in: 0..<300, using: &random))
    return Event(
        id: UUID(), name: names[index % names.count], timestamp: time, userID: heavy, sessionID: "s-heavy-\(index / 40)",
        appVersion: index % 3 == 0 ? "3.3.0" : "3.2.0", platform: "iOS",
        properties: index % names.count == 0 ? ["screen": .string("screen_\(index % 25)")] : [:])
}
for chunk in stride(from: 0, to: events.count, by: 1_000) { try await store.events.insert(Array(events[chunk..<chunk + 1_000]), app: app) }

var cold: UserTimeline?
let coldTime = try await ContinuousClock().measure { cold = try await store.users.timeline(app: app, user: heavy, limit: 100) }.seconds * 1e3
print(String(format: "heavy user, newest 100, first read  %7.2f ms", coldTime))
guard let first = cold,
    first.events.map(\.id) == events.sorted(by: { $0.timestamp > $1.timestamp }).prefix(100).map(\.id)
else { fatalError("the newest page is not the user's newest events") }
report("heavy user, newest 100", try await measure(runs) { _ = try await store.users.timeline(app: app, user: heavy, limit: 100) }, "10,000 events")
var cursor = first.next
for _ in 1..<50 { cursor = try await store.users.timeline(app: app, user: heavy, before: cursor, limit: 100)?.next }
report(
    "heavy user, 100 at 5,000 deep",
    try await measure(runs) { _ = try await store.users.timeline(app: app, user: heavy, before: cursor, limit: 100) }, "")
let filter = try SegmentFilter(parsing: "app_version==3.3.0")
report(
    "heavy user, newest 100, filtered",
    try await measure(runs) { _ = try await store.users.timeline(app: app, user: heavy, limit: 100, filter: filter) },
    "app_version==3.3.0")
let busy = "user-1"
let busyPage = try await store.users.timeline(app: app, user: busy, limit: 100)
report(
    "fixture user, newest 100", try await measure(runs) { _ = try await store.users.timeline(app: app, user: busy, limit: 100) },
    "\(busyPage?.events.count ?? 0) events on the page")

// Search over 200,000 users.
let searched = try EventStore(path: scratch.appendingPathComponent("search.sqlite").path)
let searchApp = try await searched.apps.create(name: "Search").app.id
for chunk in stride(from: 0, to: 200_000, by: 5_000) {
    try await searched.events.insert(
        (chunk..<chunk + 5_000).map { user in
            Event(
                id: UUID(), name: "open", timestamp: Fixtures.start.addingTimeInterval(Double(user)), userID: "user-\(user)", appVersion: "1.0",
                platform: "iOS")
        }, app: searchApp)
}
let prefixes = (0..<2_000).map { _ in
    let id = "user-\(Int.random(in: 0..<200_000, using: &random))"
    return String(id.prefix(Int.random(in: 1...min(10, id.count), using: &random)))
}
var next = 0
report(
    "search of 200,000 users",
    try await measure(prefixes.count - 1) {
        _ = try await searched.users.search(app: searchApp, prefix: prefixes[next % prefixes.count])
        next += 1
    }, "prefixes of 1 to 10 characters, 20 users each")

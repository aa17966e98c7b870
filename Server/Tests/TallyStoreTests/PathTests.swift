import Foundation
import SeededRandom
import TallyEvent
import TallyStoreTesting
import Testing

@testable import TallyStore

/// Paths compared with brute force over random sessions: sessions spanning midnight, session
/// ids shared by two users, events without a session, many events sharing a millisecond,
/// names whose text order differs from their order of arrival, and more than ten steps a
/// level; under filters, in several time zones, with segment properties set before ingest or
/// after it (a rebuild from raw events).
@Suite struct PathOracleTests {
    struct Case: Sendable, CustomStringConvertible {
        var start: String
        var kind = Paths.Kind.event
        var direction = Paths.Direction.after
        var depth = 3
        var filter = SegmentFilter()
        var description: String { "\(start) \(kind) \(direction) \(depth), \(filter)" }
    }

    static let cases: [Case] = [
        Case(start: "open"),
        Case(start: "tap", depth: 5),
        Case(start: "tap", direction: .before, depth: 4),
        Case(start: "s3", kind: .screen),
        Case(start: "s0", kind: .screen, direction: .before, depth: 2),
        Case(start: "screen_view", depth: 1),
        Case(start: "open", filter: SegmentFilter([.is("app_version", "2.0")])),
        Case(start: "Zed", kind: .event, filter: SegmentFilter([.isNot("button", "b1")])),
        Case(start: "s1", kind: .screen, depth: 3, filter: SegmentFilter([.is("plan", "pro")])),
        Case(start: "missing"),
    ]

    static let names = ["open", "tap", "tap", "screen_view", "screen_view", "screen_view", "Zed", "ärger", "identify", "a"]

    /// Random sessions of 40 users over 12 days, in `store` or a new store of `database`: each session a run of events a few seconds
    /// to a few hours apart, a third of them sharing the millisecond of the event before.
    static func randomStore(seed: UInt64, on database: TestDatabase, store: EventStore? = nil) async throws -> (
        store: EventStore, app: AppID, events: [Event], timeZone: String
    ) {
        var random = SplitMix64(seed: seed &* 104_729)
        let timeZone = MetricsPropertyTests.timeZones[Int(seed) % MetricsPropertyTests.timeZones.count]
        let store = if let store { store } else { try await database.makeStore() }
        let app = try await store.apps.create(name: "Paths").app.id
        let properties = SegmentOracleTests.properties
        if seed % 2 == 0 { _ = try await store.apps.update(app, segmentProperties: properties) }
        var events: [Event] = []
        for session in 0..<Int.random(in: 150...250, using: &random) {
            let user = "user\(Int.random(in: 0..<40, using: &random))"
            // Ids repeat across users; some events have none, or an empty one.
            let id: String? = [nil, "", "s\(session % 60)", "s\(session % 60)", "s\(session % 60)"].randomElement(using: &random)!
            var time = MetricsPropertyTests.start + Int64.random(in: 0..<(12 * 86_400_000), using: &random)
            let version = ["1.0", "2.0"].randomElement(using: &random)!
            for _ in 0..<Int.random(in: 1...25, using: &random) {
                if Int.random(in: 0..<3, using: &random) > 0 {
                    time +=
                        Int.random(in: 0..<4, using: &random) == 0
                        ? Int64.random(in: 1...7_200_000, using: &random) : Int64.random(in: 1...9_000, using: &random)
                }
                let name = names.randomElement(using: &random)!
                var properties: [String: PropertyValue] = [:]
                switch name {
                case "screen_view":
                    // Fifteen screens, some rare; a screen view without a screen is no step.
                    if Int.random(in: 0..<12, using: &random) > 0 {
                        properties["screen"] = .string("s\(min(Int.random(in: 0..<15, using: &random), Int.random(in: 0..<15, using: &random)))")
                    }
                case "identify": properties["plan"] = [.string("free"), .string("pro")].randomElement(using: &random)!
                default: properties["button"] = [.string("b1"), .string("b2"), nil].randomElement(using: &random)!
                }
                events.append(
                    Event(
                        id: .random(using: &random), name: name, timestamp: Date(unixMilliseconds: time), userID: user, sessionID: id,
                        appVersion: version, platform: "iOS", properties: properties))
            }
        }
        events.shuffle(using: &random)
        events += (0..<50).map { _ in events.randomElement(using: &random)! }
        var inserted = 0
        while inserted < events.count {
            let size = min(Int.random(in: 1...200, using: &random), events.count - inserted)
            try await store.events.insert(Array(events[inserted..<inserted + size]), app: app)
            inserted += size
        }
        if seed % 2 == 1 { _ = try await store.apps.update(app, segmentProperties: properties) }
        return (store, app, events, timeZone)
    }

    /// The paths of `events` (deduplicated, narrowed to the filter), straight from the definition.
    static func expected(_ test: Case, events: [Event], from: Date, to: Date) -> (sessions: Int, levels: [[Paths.Step]]) {
        func step(of event: Event) -> String? {
            guard test.kind == .screen else { return event.name }
            guard event.name == "screen_view", case .string(let screen)? = event.properties["screen"] else { return nil }
            return screen
        }
        struct Session: Hashable {
            var user: String
            var id: String
        }
        var sessions: [Session: [(time: Date, step: String)]] = [:]
        for event in events where event.timestamp >= from && event.timestamp < to {
            guard let id = event.sessionID, !id.isEmpty, let step = step(of: event) else { continue }
            sessions[Session(user: event.userID, id: id), default: []].append((event.timestamp, step))
        }
        var counts = [[String: Int]](repeating: [:], count: test.depth)
        var started = 0
        for steps in sessions.values {
            let sorted = steps.sorted { ($0.time, $0.step) < ($1.time, $1.step) }
            guard let origin = sorted.firstIndex(where: { $0.step == test.start }) else { continue }
            started += 1
            for level in 1...test.depth {
                let index = test.direction == .after ? origin + level : origin - level
                counts[level - 1][sorted.indices.contains(index) ? sorted[index].step : (test.direction == .after ? "$end" : "$start"), default: 0] +=
                    1
            }
        }
        return (
            started,
            counts.map { level in
                let ranked = level.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
                var steps = ranked.prefix(10).map { Paths.Step(step: $0.key, sessions: $0.value) }
                let other = ranked.dropFirst(10).reduce(0) { $0 + $1.value }
                if other > 0 { steps.append(Paths.Step(step: "$other", sessions: other)) }
                return steps
            }
        )
    }

    @Test(arguments: TestDatabase.all, 1...4 as ClosedRange<UInt64>)
    func pathsMatchBruteForce(database: TestDatabase, seed: UInt64) async throws {
        let (store, app, events, timeZone) = try await Self.randomStore(seed: seed, on: database)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timeZone)!
        func start(of day: String) -> Date {
            let parts = day.split(separator: "-").map { Int($0)! }
            return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))!
        }
        var (nonEmpty, others) = (0, 0)
        for test in Self.cases {
            let oracle = MetricsOracle(
                events: events, timeZone: timeZone, matching: MetricsOracle.matching(test.filter, properties: SegmentOracleTests.properties))
            let first = oracle.day(of: Date(unixMilliseconds: MetricsPropertyTests.start))
            for (from, to) in [(oracle.day(first, offset: 2), oracle.day(first, offset: 9)), (first, oracle.day(first, offset: 13))] {
                let paths = try await store.metrics.paths(
                    from: test.start, kind: test.kind, direction: test.direction, depth: test.depth,
                    in: ReadScope(
                        app: app, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: timeZone), filter: test.filter))
                let expected = Self.expected(test, events: oracle.events, from: start(of: from), to: start(of: oracle.day(to, offset: 1)))
                #expect(paths.sessions == expected.sessions, "seed \(seed), \(timeZone), \(from)…\(to), \(test)")
                #expect(paths.levels == expected.levels, "seed \(seed), \(timeZone), \(from)…\(to), \(test)")
                #expect((paths.from, paths.to, paths.timeZone, paths.start) == (from, to, timeZone, test.start))
                if expected.sessions > 0 { nonEmpty += 1 }
                others += paths.levels.joined().filter { $0.step == Paths.other }.count
            }
        }
        // The cases are not vacuous: most find sessions, some levels have an `$other`.
        #expect(nonEmpty >= 14 && others > 0)
    }

    @Test func boundsAreEnforced() async throws {
        let store = try await TestDatabase.sqlite.makeStore()
        let app = try await store.apps.create(name: "Bounds").app.id
        for depth in [0, -1, 6, Int.max, Int.min] {
            await #expect(throws: TallyStoreError.self) {
                try await store.metrics.paths(
                    from: "open", depth: depth, in: ReadScope(app: app, days: CalendarDay("2026-01-01")!...CalendarDay("2026-01-02")!))
            }
        }
        await #expect(throws: TallyStoreError.self) {
            try await store.metrics.paths(from: "", in: ReadScope(app: app, days: CalendarDay("2026-01-01")!...CalendarDay("2026-01-02")!))
        }
        await #expect(throws: TallyStoreError.unknownFilterProperty("tier")) {
            try await store.metrics.paths(
                from: "open",
                in: ReadScope(app: app, days: CalendarDay("2026-01-01")!...CalendarDay("2026-01-02")!, filter: SegmentFilter([.is("tier", "gold")])))
        }
        let empty = try await store.metrics.paths(
            from: "open", depth: 2, in: ReadScope(app: app, days: CalendarDay("2026-01-01")!...CalendarDay("2026-01-02")!))
        #expect(empty.sessions == 0 && empty.levels == [[], []])
    }
}

/// Thousands of sessions, counted on two threads, by concurrent queries: each equals brute force.
@Suite struct PathStressTests {
    @Test(arguments: TestDatabase.engineStress)
    func concurrentPathsOfManySessionsMatchBruteForce(database: TestDatabase) async throws {
        var random = SplitMix64(seed: 77)
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Many").app.id
        var events: [Event] = []
        for session in 0..<9_000 {
            let user = "u\(Int.random(in: 0..<4_000, using: &random))"
            var time = MetricsPropertyTests.start + Int64.random(in: 0..<(4 * 86_400_000), using: &random)
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                time += Int64.random(in: 0...60_000, using: &random)
                let name = ["open", "tap", "screen_view", "buy"].randomElement(using: &random)!
                events.append(
                    Event(
                        id: .random(using: &random), name: name, timestamp: Date(unixMilliseconds: time), userID: user,
                        sessionID: "s\(session % 5_000)", properties: name == "screen_view" ? ["screen": .string("s\(session % 7)")] : [:]))
            }
        }
        for start in stride(from: 0, to: events.count, by: 1_000) {
            try await store.events.insert(Array(events[start..<min(start + 1_000, events.count)]), app: app)
        }
        // Enough sessions for two threads.
        #expect(Set(events.map { "\($0.userID) \($0.sessionID!)" }).count > 2 * PathCounter.sessionsForTwoThreads)
        let oracle = MetricsOracle(events: events, timeZone: "UTC")
        let first = oracle.day(of: Date(unixMilliseconds: MetricsPropertyTests.start))
        let (from, to) = (first, oracle.day(first, offset: 4))
        let cases = [
            PathOracleTests.Case(start: "open"), PathOracleTests.Case(start: "tap", direction: .before, depth: 5),
            PathOracleTests.Case(start: "s3", kind: .screen, depth: 2),
        ]
        let begin = Date(unixMilliseconds: MetricsPropertyTests.start)
        let end = begin.addingTimeInterval(5 * 86_400)
        // Each case's brute force once (the sanitizer's CI run spent minutes repeating it).
        let answers = cases.map { PathOracleTests.expected($0, events: oracle.events, from: begin, to: end) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for round in 0..<(ThreadSanitizer.isActive ? 6 : 12) {
                let (test, expected) = (cases[round % cases.count], answers[round % cases.count])
                group.addTask {
                    let paths = try await store.metrics.paths(
                        from: test.start, kind: test.kind, direction: test.direction, depth: test.depth,
                        in: ReadScope(app: app, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: "UTC")))
                    #expect(paths.sessions == expected.sessions && paths.sessions > 500, "\(test)")
                    #expect(paths.levels == expected.levels, "\(test)")
                }
            }
            try await group.waitForAll()
        }
    }
}

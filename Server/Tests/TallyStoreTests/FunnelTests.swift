import Foundation
import PropertyBased
import SeededRandom
import TallyEvent
import TallyStoreTesting
import Testing

@testable import TallyStore

@Suite struct FunnelStepSyntaxTests {
    @Test func readsStepsWithConditions() throws {
        let steps = try FunnelStep.steps(parsing: #"app_open,screen_view[screen==Check\]out|Cart;platform!=iOS],a\,b"#)
        #expect(steps == ["app_open", FunnelStep("screen_view", [.is("screen", "Check]out", "Cart"), .isNot("platform", "iOS")]), "a,b"])
        #expect(try FunnelStep.steps(parsing: steps.map(\.description).joined(separator: ",")) == steps)
    }

    @Test(arguments: ["", "a,,b", "a[x==1", "a[x==1]b", "a[x=1]", #"a\b"#, "[x==1]"])
    func malformedStepsAreRefused(text: String) {
        #expect(throws: SegmentFilter.ParseError.self) { try FunnelStep.steps(parsing: text) }
    }
}

/// Funnels compared with a brute-force count over the raw events: per user, from every
/// first-step event in the range, the earliest matching event of each next step strictly
/// after the previous one, within the window.
@Suite struct FunnelOracleTests {
    struct Case: Sendable, CustomStringConvertible {
        var steps: [FunnelStep]
        var window: Int
        var filter = SegmentFilter()
        var breakdown: String?
        var description: String { "\(steps) within \(window) s, \(filter), by \(breakdown ?? "-")" }
    }

    static let cases: [Case] = [
        Case(steps: ["open", "tap", "screen_view"], window: 86_400),
        Case(steps: ["screen_view", "screen_view", "screen_view"], window: 3_600),
        Case(
            steps: [FunnelStep("screen_view", [.is("screen", "cart")]), FunnelStep("tap", [.is("button", "b1", "b2")]), "identify"],
            window: 7 * 86_400),
        Case(steps: ["tap", "open"], window: 900, filter: SegmentFilter([.isNot("platform", "Android")])),
        Case(steps: ["open", "tap", "tap", "identify"], window: 2 * 86_400, filter: SegmentFilter([.is("plan", "pro", "free")])),
        Case(steps: ["open", "screen_view"], window: 86_400, breakdown: "app_version"),
        Case(steps: ["tap", FunnelStep("screen_view", [.isNot("screen", "home")])], window: 86_400, breakdown: "plan"),
        Case(steps: ["tap", "tap"], window: 86_400, breakdown: "button"),
        Case(steps: ["open", "missing"], window: 60),
    ]

    /// The funnel of `oracle`'s events (already narrowed to the filter), with the first step
    /// narrowed by `firstStep` (for a breakdown value).
    static func expected(
        _ test: Case, events: [Event], from: Date, to: Date, properties: SegmentProperties, all: [Event],
        firstStep: (Event) -> Bool = { _ in true }
    ) -> [Funnel.Step] {
        let others = test.steps.map { step in
            MetricsOracle.matching(SegmentFilter(step.conditions.conditions.filter { $0.property != "screen" }), properties: properties)(all)
        }
        func isStep(_ index: Int, _ event: Event) -> Bool {
            guard event.name == test.steps[index].event, index > 0 || firstStep(event) else { return false }
            let screen = SegmentDelta.screen(of: event)
            return test.steps[index].conditions.conditions.allSatisfy { $0.property != "screen" || $0.matches(screen) } && others[index](event)
        }
        let window = Double(test.window)
        // Durations in milliseconds, the median computed as the store does, in the same order.
        var durations = [[Int64]](repeating: [], count: test.steps.count)
        for events in Dictionary(grouping: events, by: \.userID).values {
            let sorted = events.sorted { $0.timestamp < $1.timestamp }
            var best = [Int64?](repeating: nil, count: test.steps.count)
            for start in sorted where isStep(0, start) && start.timestamp >= from && start.timestamp < to {
                best[0] = 0
                var previous = start.timestamp
                for step in 1..<test.steps.count {
                    guard
                        let next = sorted.first(where: {
                            $0.timestamp > previous && $0.timestamp.timeIntervalSince(start.timestamp) <= window && isStep(step, $0)
                        })
                    else { break }
                    let duration = next.timestamp.unixMilliseconds - start.timestamp.unixMilliseconds
                    best[step] = min(best[step] ?? .max, duration)
                    previous = next.timestamp
                }
            }
            for (step, duration) in best.enumerated() { if let duration { durations[step].append(duration) } }
        }
        return zip(test.steps, durations).enumerated().map { index, pair in
            let sorted = pair.1.sorted()
            var median: Double?
            if index > 0, !sorted.isEmpty {
                let middle = sorted.count / 2
                median = (sorted.count % 2 == 1 ? Double(sorted[middle]) : Double(sorted[middle - 1] + sorted[middle]) / 2) / 1_000
            }
            return Funnel.Step(event: pair.0.description, users: sorted.count, medianSeconds: median)
        }
    }

    @Test(arguments: TestDatabase.all, 1...4 as ClosedRange<UInt64>)
    func funnelsMatchBruteForce(database: TestDatabase, seed: UInt64) async throws {
        let (store, app, events, timeZone) = try await SegmentOracleTests.randomStore(seed: seed, on: database)
        let properties = SegmentOracleTests.properties
        for test in Self.cases {
            let oracle = MetricsOracle(events: events, timeZone: timeZone, matching: MetricsOracle.matching(test.filter, properties: properties))
            let all = MetricsOracle(events: events, timeZone: timeZone).events
            let first = oracle.day(of: Date(unixMilliseconds: MetricsPropertyTests.start))
            let (from, to) = (oracle.day(first, offset: 3), oracle.day(first, offset: 20))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: timeZone)!
            func start(of day: String) -> Date {
                let parts = day.split(separator: "-").map { Int($0)! }
                return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))!
            }
            let (begin, end) = (start(of: from), start(of: oracle.day(to, offset: 1)))
            let funnel = try await store.metrics.funnel(
                test.steps, window: test.window, breakdown: test.breakdown,
                in: ReadScope(app: app, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: timeZone), filter: test.filter))
            #expect(
                funnel.steps == Self.expected(test, events: oracle.events, from: begin, to: end, properties: properties, all: all),
                "seed \(seed), \(timeZone), \(test)")
            guard let breakdown = test.breakdown else { continue }
            let value = MetricsOracle.value(of: breakdown, properties: properties, all: all)
            let values = Set(oracle.events.filter { $0.name == test.steps[0].event }.map(value))
            var expected: [Funnel.Segment] = values.map { candidate in
                Funnel.Segment(
                    value: candidate,
                    steps: Self.expected(
                        test, events: oracle.events, from: begin, to: end, properties: properties, all: all,
                        firstStep: { value($0) == candidate }))
            }
            expected = expected.filter { $0.steps[0].users > 0 }.sorted {
                ($0.steps[0].users, $1.value ?? "") > ($1.steps[0].users, $0.value ?? "")
            }
            #expect(funnel.breakdown == expected, "seed \(seed), \(timeZone), \(test)")
        }
    }

    @Test func boundsAreEnforced() async throws {
        let store = try await TestDatabase.sqlite.makeStore()
        let app = try await store.apps.create(name: "A").app.id
        for (steps, window) in [
            (["a"], 60), (Array(repeating: "a", count: 11), 60), (["a", "b"], 0), (["a", "b"], Funnel.maximumWindow + 1),
        ] {
            await #expect(throws: TallyStoreError.self) {
                try await store.metrics.funnel(
                    steps.map { FunnelStep($0) }, window: window,
                    in: ReadScope(app: app, days: CalendarDay("2026-01-01")!...CalendarDay("2026-01-02")!))
            }
        }
        await #expect(throws: TallyStoreError.unknownFilterProperty("plan")) {
            try await store.metrics.funnel(
                ["a", "b"], breakdown: "plan", in: ReadScope(app: app, days: CalendarDay("2026-01-01")!...CalendarDay("2026-01-02")!))
        }
        let empty = try await store.metrics.funnel(
            ["a", "b"], in: ReadScope(app: app, days: CalendarDay("2026-01-01")!...CalendarDay("2026-01-02")!))
        #expect(empty.steps.map(\.users) == [0, 0])
    }
}

/// A funnel step's median time, found by selection, against the middle of the sorted times:
/// many equal times, a day's milliseconds with one far outlier, and any `Int64`.
@Suite struct FunnelMedianTests {
    @Test func theMedianIsTheSortedMiddle() async {
        let generators = [
            Gen.int64(in: 0...20).array(of: 1...3_000),
            Gen.int64(in: 0...86_400_000).array(of: 1...3_000).map { $0 + [7_776_000_000] },
            Gen.int64().array(of: 1...3_000),
        ]
        for generator in generators {
            await propertyCheck(count: 80, input: generator) { times in
                var selected = times
                let sorted = times.sorted()
                let middle = sorted.count / 2
                let expected = sorted.count % 2 == 1 ? Double(sorted[middle]) : (Double(sorted[middle - 1]) + Double(sorted[middle])) / 2
                #expect(selected.withUnsafeMutableBufferPointer { FunnelCounter.median($0) } == expected)
                #expect(selected.sorted() == sorted)
            }
        }
        #expect(FunnelCounter.median(UnsafeMutableBufferPointer(start: nil, count: 0)) == nil)
    }
}

/// Funnels of thousands of users, counted in blocks on two threads by several queries at once:
/// each equals brute force, and once more events land in the same buckets, the next answers
/// count them too (the log cache serves a bucket's log only at the revision read).
@Suite struct FunnelStressTests {
    @Test(arguments: TestDatabase.engineStress)
    func concurrentFunnelsOfManyUsersMatchBruteForce(database: TestDatabase) async throws {
        var random = SplitMix64(seed: 30)
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Funnels").app.id
        let start = instant("2026-03-02T00:00:00Z").unixMilliseconds
        let test = FunnelOracleTests.Case(steps: ["open", "tap", "buy"], window: 86_400)
        var stored: [Event] = []
        for _ in 0..<2 {
            let events = (0..<15_000).map { _ in
                Event(
                    id: .random(using: &random),
                    name: ["open", "tap", "buy", "other"].randomElement(using: &random)!,
                    // Within 2 days and an hour after them, on a 10-second grid so that
                    // some of a user's events share their millisecond.
                    timestamp: Date(unixMilliseconds: start + Int64.random(in: 0..<(2 * 8_640 + 360), using: &random) * 10_000),
                    userID: "user\(Int.random(in: 0..<3_000, using: &random))", appVersion: "1.0", platform: "iOS", properties: [:])
            }
            for chunk in stride(from: 0, to: events.count, by: 1_000) {
                try await store.events.insert(Array(events[chunk..<min(chunk + 1_000, events.count)]), app: app)
            }
            stored += events
            let expected = FunnelOracleTests.expected(
                test, events: stored, from: Date(unixMilliseconds: start), to: Date(unixMilliseconds: start + 2 * 86_400_000),
                properties: SegmentProperties(), all: stored)
            #expect(expected[2].users > 100)
            try await withThrowingTaskGroup(of: Funnel.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await store.metrics.funnel(
                            test.steps, window: test.window,
                            in: ReadScope(
                                app: app, days: CalendarDay("2026-03-02")!...CalendarDay("2026-03-03")!, timeZone: TimeZone(identifier: "UTC")))
                    }
                }
                for try await funnel in group { #expect(funnel.steps == expected) }
            }
        }
        let pooled = FunnelCounter.Scratch.pooledSizes
        #expect(pooled.count <= FunnelCounter.Scratch.pooled && pooled.allSatisfy { $0 <= FunnelCounter.Scratch.pooledBytes })
    }

    /// The memory funnels count in outlives them in a pool: round after round of more scratches
    /// than it keeps, some too large, it holds two at most, each within its bound.
    @Test func theScratchPoolStaysBounded() {
        for round in 0..<300 {
            let scratches = (0..<3).map { _ in FunnelCounter.Scratch.taken() }
            scratches[round % 3].firsts.reserve(FunnelCounter.Scratch.pooledBytes / 8 + round)
            scratches.forEach(FunnelCounter.Scratch.recycle)
            let pooled = FunnelCounter.Scratch.pooledSizes
            #expect(pooled.count <= FunnelCounter.Scratch.pooled)
            #expect(pooled.allSatisfy { $0 <= FunnelCounter.Scratch.pooledBytes })
        }
    }
}

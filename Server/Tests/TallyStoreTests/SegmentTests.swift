import Foundation
import SeededRandom
import TallyEvent
import TallyStoreTesting
import Testing

@testable import TallyStore

@Suite struct SegmentFilterSyntaxTests {
    @Test func readsPlausibleFilters() throws {
        let filter = try SegmentFilter(parsing: "app_version==3.3.0|3.2.0;platform!=Android;plan==pro")
        #expect(filter == SegmentFilter([.is("app_version", "3.3.0", "3.2.0"), .isNot("platform", "Android"), .is("plan", "pro")]))
        #expect(filter.description == "app_version==3.3.0|3.2.0;platform!=Android;plan==pro")
        #expect(try SegmentFilter(parsing: "") == SegmentFilter())
    }

    @Test func escapesRoundTrip() throws {
        let filter = try SegmentFilter(parsing: #"note==a\|b\;c\\d|e=f;x!=!"#)
        #expect(filter.conditions == [.is("note", "a|b;c\\d", "e=f"), .isNot("x", "!")])
        for text in ["a|b;c\\d", "==", "!=", "\\", ""] {
            let filter = SegmentFilter([.is("p=!|;", text, "z")])
            #expect(try SegmentFilter(parsing: filter.description) == filter)
        }
    }

    @Test(arguments: ["plan=pro", "plan", "==pro", "plan==pro;", ";", #"plan==a\b"#, #"plan==a\"#])
    func malformedFiltersNameTheirPart(text: String) {
        #expect(throws: SegmentFilter.ParseError.self) { try SegmentFilter(parsing: text) }
    }

    @Test func limitsAreEnforced() throws {
        let values = (0...SegmentFilter.maximumValues).map(String.init).joined(separator: "|")
        #expect(throws: SegmentFilter.ParseError.self) { try SegmentFilter(parsing: "p==" + values) }
        let conditions = (0...SegmentFilter.maximumConditions).map { "p\($0)==1" }.joined(separator: ";")
        #expect(throws: SegmentFilter.ParseError.self) { try SegmentFilter(parsing: conditions) }
        let error = try #require(throws: SegmentFilter.ParseError.self) { try SegmentFilter(parsing: "app_version==1;plan=pro") }
        #expect(error.part == "plan=pro")
    }
}

/// Filtered metrics compared with ``MetricsOracle`` over random events carrying versions,
/// platforms, an event property and user properties set by `identify`, `$set` and
/// `$set_once`, in several time zones.
@Suite struct SegmentOracleTests {
    static let properties = SegmentProperties(event: ["button"], user: ["plan"])

    static let filters: [SegmentFilter] = [
        SegmentFilter([.is("app_version", "2.0")]),
        SegmentFilter([.is("app_version", "1.1", "2.0"), .is("platform", "Android")]),
        SegmentFilter([.isNot("platform", "iOS")]),
        SegmentFilter([.is("button", "b1")]),
        SegmentFilter([.isNot("button", "b1", "b2")]),
        SegmentFilter([.is("plan", "pro")]),
        SegmentFilter([.isNot("plan", "pro"), .is("app_version", "1.0")]),
        SegmentFilter([.is("plan", "none-has-it")]),
    ]

    /// Random events with segment fields, stored with the segment properties configured
    /// before ingest (even seeds) or after it, which rebuilds (odd seeds).
    static func randomStore(seed: UInt64, on database: TestDatabase) async throws -> (
        store: EventStore, app: AppID, events: [Event], timeZone: String
    ) {
        var random = SplitMix64(seed: seed &* 7919)
        let timeZone = MetricsPropertyTests.timeZones[Int(seed) % MetricsPropertyTests.timeZones.count]
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Segments").app.id
        if seed % 2 == 0 { _ = try await store.apps.update(app, segmentProperties: properties) }
        var events: [Event] = []
        for _ in 0..<Int.random(in: 800...1_600, using: &random) {
            let name = ["open", "tap", "identify", "screen_view", "screen_view"].randomElement(using: &random)!
            let grid = Int64.random(in: 0..<(35 * 24 * 8), using: &random) * 450_000
            let jitter = Bool.random(using: &random) ? 0 : Int64.random(in: -2...2, using: &random)
            let user = "user\(Int.random(in: 0..<(8 + 2 * Int(grid / 86_400_000)), using: &random))"
            var properties: [String: PropertyValue] = [:]
            switch name {
            case "screen_view": properties["screen"] = [.string("home"), .string("cart")].randomElement(using: &random)!
            case "identify": properties["plan"] = [.string("free"), .string("pro"), .int(3)].randomElement(using: &random)!
            default:
                properties["button"] = [.string("b1"), .string("b2"), .string("b3"), .int(1), nil].randomElement(using: &random)!
                if Int.random(in: 0..<6, using: &random) == 0 {
                    let plan = ["free", "pro", "team"].randomElement(using: &random)!
                    properties[Bool.random(using: &random) ? "$set" : "$set_once"] = .string(#"{"plan":"\#(plan)"}"#)
                }
            }
            events.append(
                Event(
                    id: .random(using: &random),
                    name: name, timestamp: Date(unixMilliseconds: MetricsPropertyTests.start + grid + jitter), userID: user,
                    appVersion: ["1.0", "1.1", "2.0"].randomElement(using: &random)!,
                    platform: Int.random(in: 0..<3, using: &random) == 0 ? "Android" : "iOS", properties: properties))
        }
        events += (0..<100).map { _ in events.randomElement(using: &random)! }
        var inserted = 0
        while inserted < events.count {
            let size = min(Int.random(in: 1...150, using: &random), events.count - inserted)
            try await store.events.insert(Array(events[inserted..<inserted + size]), app: app)
            inserted += size
        }
        if seed % 2 == 1 { _ = try await store.apps.update(app, segmentProperties: properties) }
        return (store, app, events, timeZone)
    }

    @Test(arguments: TestDatabase.all, 1...4 as ClosedRange<UInt64>)
    func filteredMetricsMatchBruteForce(database: TestDatabase, seed: UInt64) async throws {
        let (store, app, events, timeZone) = try await Self.randomStore(seed: seed, on: database)
        for filter in Self.filters {
            let oracle = MetricsOracle(events: events, timeZone: timeZone, matching: MetricsOracle.matching(filter, properties: Self.properties))
            let first = oracle.day(of: Date(unixMilliseconds: MetricsPropertyTests.start))
            let days = stride(from: -1, through: 36, by: 3).map { oracle.day(first, offset: $0) }
            for date in days {
                let metrics = try await store.metrics.day(
                    ReadScope(app: app, day: CalendarDay(date)!, timeZone: TimeZone(identifier: timeZone), filter: filter))
                #expect(metrics == oracle.metrics(date: date, timeZone: timeZone), "seed \(seed), \(timeZone), \(date), \(filter)")
            }
            let all = (-1...36).map { oracle.day(first, offset: $0) }
            let range = try await store.metrics.range(
                ReadScope(
                    app: app, days: CalendarDay(all.first!)!...CalendarDay(all.last!)!, timeZone: TimeZone(identifier: timeZone), filter: filter))
            let expected = all.map { oracle.metrics(date: $0, timeZone: timeZone) }
            #expect(range.dau == expected.map(\.dau), "seed \(seed), \(filter)")
            for (first, last) in [(0, 6), (3, 20), (12, 13), (30, 36)] {
                let (from, to) = (
                    oracle.day(oracle.day(of: Date(unixMilliseconds: MetricsPropertyTests.start)), offset: first),
                    oracle.day(oracle.day(of: Date(unixMilliseconds: MetricsPropertyTests.start)), offset: last)
                )
                let part = try await store.metrics.range(
                    ReadScope(app: app, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: timeZone), filter: filter))
                let users = oracle.rangeUsers(from: from, to: to)
                #expect((part.users, part.newUsers) == users, "seed \(seed), \(filter), \(from)…\(to)")
                let screens = try await store.metrics.screenViews(
                    ReadScope(app: app, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: timeZone), filter: filter))
                #expect(screens == oracle.screenViews(from: from, to: to), "seed \(seed), \(filter), \(from)…\(to)")
                let versions = try await store.metrics.versionUsers(
                    ReadScope(app: app, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: timeZone), filter: filter))
                #expect(versions == oracle.versionUsers(from: from, to: to), "seed \(seed), \(filter), \(from)…\(to)")
            }
            for name in Set(oracle.events.map(\.name)) {
                #expect(range.events[name] == expected.map { $0.events[name] ?? 0 }, "seed \(seed), \(name), \(filter)")
                let counts = try await store.metrics.dailyCounts(
                    of: name,
                    in: ReadScope(
                        app: app, days: CalendarDay(all.first!)!...CalendarDay(all.last!)!, timeZone: TimeZone(identifier: timeZone), filter: filter))
                #expect(counts.map(\.events) == expected.map { $0.events[name] ?? 0 }, "seed \(seed), \(name), \(filter)")
            }
            for period in RetentionPeriod.allCases {
                let retention = try await store.metrics.retention(
                    ReadScope(app: app, days: CalendarDay(all[1])!...CalendarDay(all[30])!, timeZone: TimeZone(identifier: timeZone), filter: filter),
                    period: period)
                #expect(
                    retention == oracle.retention(from: all[1], to: all[30], timeZone: timeZone, period: period), "seed \(seed), \(period), \(filter)"
                )
            }
        }
    }

    /// The metrics that read raw events (property metrics, the live feed) under the same filters.
    @Test(arguments: TestDatabase.all, 1...2 as ClosedRange<UInt64>)
    func filteredRawEventMetricsMatchBruteForce(database: TestDatabase, seed: UInt64) async throws {
        let (store, app, events, timeZone) = try await Self.randomStore(seed: seed, on: database)
        for filter in Self.filters {
            let oracle = MetricsOracle(events: events, timeZone: timeZone, matching: MetricsOracle.matching(filter, properties: Self.properties))
            let first = oracle.day(of: Date(unixMilliseconds: MetricsPropertyTests.start))
            for date in stride(from: 0, through: 30, by: 6).map({ oracle.day(first, offset: $0) }) {
                let context = "seed \(seed), \(timeZone), \(date), \(filter)"
                #expect(
                    try await store.metrics.average(
                        of: "button", event: "tap",
                        in: ReadScope(app: app, day: CalendarDay(date)!, timeZone: TimeZone(identifier: timeZone), filter: filter))
                        == oracle.propertyAverage(event: "tap", property: "button", date: date), "\(context)")
                #expect(
                    try await store.metrics.emptyShare(
                        of: "button", event: "tap",
                        in: ReadScope(app: app, day: CalendarDay(date)!, timeZone: TimeZone(identifier: timeZone), filter: filter))
                        == oracle.emptyPropertyShare(event: "tap", property: "button", date: date), "\(context)")
                for (name, property) in [("tap", "button"), ("screen_view", "screen")] {
                    #expect(
                        try await store.metrics.breakdown(
                            event: name, by: property, limit: 2,
                            in: ReadScope(app: app, day: CalendarDay(date)!, timeZone: TimeZone(identifier: timeZone), filter: filter))
                            == oracle.breakdown(event: name, property: property, date: date, limit: 2), "\(context), \(property)")
                }
            }
            let latest = try await store.events.latest(app: app, limit: 20, filter: filter)
            let expected = oracle.events.sorted { $0.timestamp > $1.timestamp }.prefix(20)
            #expect(latest.map(\.timestamp) == expected.map(\.timestamp), "seed \(seed), \(filter)")
            #expect(latest.allSatisfy { event in expected.contains { $0.id == event.id } } || latest.count < 20, "seed \(seed), \(filter)")
        }
    }

    @Test func unknownPropertiesAndBadSettingsAreRefused() async throws {
        let store = try await TestDatabase.sqlite.makeStore()
        let app = try await store.apps.create(name: "A").app.id
        await #expect(throws: TallyStoreError.unknownFilterProperty("plan")) {
            try await store.metrics.day(ReadScope(app: app, day: CalendarDay("2026-01-01")!, filter: SegmentFilter([.is("plan", "pro")])))
        }
        for bad in [
            SegmentProperties(event: ["platform"]), SegmentProperties(event: ["a"], user: ["a"]), SegmentProperties(event: [""]),
            SegmentProperties(event: (0...SegmentProperties.maximumEventProperties).map { "p\($0)" }),
        ] {
            await #expect(throws: TallyStoreError.invalidSegmentProperties(bad)) { try await store.apps.update(app, segmentProperties: bad) }
        }
        let updated = try await store.apps.update(app, segmentProperties: Self.properties)
        #expect(updated.segmentProperties == Self.properties)
        #expect(try await store.apps.app(id: app)?.segmentProperties == Self.properties)
    }
}

/// A filtered day of more runs (users of a name in a log) than
/// ``RollupReader/runsForTwoThreads``, which a scan counts in two halves of the users, one a
/// thread: in UTC (day logs alone) and in Kathmandu (a day log and the bucket logs of the
/// rest), several read at once, each equals brute force.
@Suite struct SegmentScanStressTests {
    @Test(arguments: TestDatabase.engineStress)
    func aFilteredDayOfManyUsersMatchesBruteForce(database: TestDatabase) async throws {
        var random = SplitMix64(seed: 31)
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Many users").app.id
        let start = instant("2026-03-02T00:00:00Z").unixMilliseconds
        let events = (0..<36_000).map { _ in
            let name = ["open", "tap", "screen_view"].randomElement(using: &random)!
            return Event(
                id: .random(using: &random),
                name: name,
                // From 6 hours before the day to 6 hours after it, on a 10-second grid so
                // that some of a user's events share their millisecond.
                timestamp: Date(unixMilliseconds: start + Int64.random(in: -2_160..<10_800, using: &random) * 10_000),
                userID: "user\(Int.random(in: 0..<12_000, using: &random))", appVersion: ["1.0", "2.0"].randomElement(using: &random)!,
                platform: ["iOS", "Android"].randomElement(using: &random)!,
                properties: name == "screen_view" ? ["screen": .string(["Home", "Cart"].randomElement(using: &random)!)] : [:])
        }
        for chunk in stride(from: 0, to: events.count, by: 1_000) {
            try await store.events.insert(Array(events[chunk..<min(chunk + 1_000, events.count)]), app: app)
        }
        let runs = Set(events.filter { (start..<start + 86_400_000).contains($0.timestamp.unixMilliseconds) }.map { [$0.userID, $0.name] })
        #expect(runs.count > RollupReader.runsForTwoThreads)
        for timeZone in ThreadSanitizer.prefix(1, of: ["Asia/Kathmandu", "UTC"]) {
            let filters = [SegmentFilter([.is("app_version", "2.0"), .isNot("platform", "iOS")]), SegmentFilter([.is("app_version", "2.0")])]
            for filter in ThreadSanitizer.prefix(1, of: filters) {
                let oracle = MetricsOracle(
                    events: events, timeZone: timeZone, matching: MetricsOracle.matching(filter, properties: SegmentProperties()))
                let expected = oracle.metrics(date: "2026-03-02", timeZone: timeZone)
                try await withThrowingTaskGroup(of: DayMetrics.self) { group in
                    for _ in 0..<3 {
                        group.addTask {
                            try await store.metrics.day(
                                ReadScope(app: app, day: CalendarDay("2026-03-02")!, timeZone: TimeZone(identifier: timeZone), filter: filter))
                        }
                    }
                    for try await metrics in group { #expect(metrics == expected, "\(timeZone), \(filter)") }
                }
            }
        }
    }
}

/// A bucket written by many commits: its new events go to tails beside its log, folded in when
/// they grow many or large (see ``BucketLogTails``). After each kind of commit, filtered
/// metrics and a funnel over the bucket's day equal brute force.
@Suite struct BucketLogTailTests {
    @Test(arguments: TestDatabase.all)
    func aBucketWrittenByManyCommitsReadsExactly(database: TestDatabase) async throws {
        var random = SplitMix64(seed: 47)
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Tails").app.id
        let start = instant("2026-03-02T10:00:00Z").unixMilliseconds
        func events(_ count: Int) -> [Event] {
            (0..<count).map { _ in
                Event(
                    id: .random(using: &random), name: ["open", "tap", "screen_view"].randomElement(using: &random)!,
                    // Two buckets, and now and then the day before or after.
                    timestamp: Date(unixMilliseconds: start + Int64.random(in: -20..<1_800, using: &random) * 1_000),
                    userID: "user\(Int.random(in: 0..<400, using: &random))", appVersion: ["1.0", "2.0"].randomElement(using: &random)!,
                    platform: ["iOS", "Android"].randomElement(using: &random)!)
            }
        }
        let filter = SegmentFilter([.is("app_version", "2.0")])
        let funnel = FunnelOracleTests.Case(steps: ["open", "tap", "screen_view"], window: 3_600, filter: filter)
        var stored: [Event] = []
        func check(_ stage: String) async throws {
            let oracle = MetricsOracle(events: stored, timeZone: "UTC", matching: MetricsOracle.matching(filter, properties: SegmentProperties()))
            #expect(
                try await store.metrics.day(
                    ReadScope(app: app, day: CalendarDay("2026-03-02")!, timeZone: TimeZone(identifier: "UTC"), filter: filter))
                    == oracle.metrics(date: "2026-03-02", timeZone: "UTC"), "\(stage)")
            let all = MetricsOracle(events: stored, timeZone: "UTC").events
            let read = try await store.metrics.funnel(
                funnel.steps, window: funnel.window,
                in: ReadScope(
                    app: app, days: CalendarDay("2026-03-02")!...CalendarDay("2026-03-02")!, timeZone: TimeZone(identifier: "UTC"), filter: filter))
            let expected = FunnelOracleTests.expected(
                funnel, events: oracle.events, from: instant("2026-03-02T00:00:00Z"), to: instant("2026-03-03T00:00:00Z"),
                properties: SegmentProperties(), all: all)
            #expect(read.steps == expected, "\(stage)")
        }
        // Many small commits: tails up to their most, folded, again and again.
        for commit in 1...(3 * BucketLogTails.maximumCount) {
            let batch = events(12)
            try await store.events.insert(batch, app: app)
            stored += batch
            if commit % (ThreadSanitizer.isActive ? 60 : 20) == 0 { try await check("after \(commit) small commits") }
        }
        // Large commits: tails past the bytes a log keeps beside it, folded.
        for commit in 1...4 {
            let batch = events(6_000)
            try await store.events.insert(batch, app: app)
            stored += batch
            try await check("after \(commit) large commits")
        }
    }
}

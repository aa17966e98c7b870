import Foundation
import TallyEvent
import TallyStoreTesting
import Testing

@testable import TallyStore

/// Pruning raw events changes no metric: every metric of two apps' random events — day and
/// range metrics, filtered too, retention by day and by week, funnels with a breakdown, paths,
/// filters on event and user segment properties, daily counts — read in several time zones
/// before and after pruning is the same, while the raw events left are exactly those from
/// each app's horizon on.
@Suite struct RawRetentionOracleTests {
    /// When the pruning runs: app "Random"'s 2-day retention puts its horizon at 2026-02-27,
    /// app "Paths"'s 13 days at 2026-02-16, both inside their data.
    static let now = instant("2026-03-01T12:00:00Z")

    @Test(arguments: TestDatabase.all, 1...4 as ClosedRange<UInt64>)
    func everyMetricIsTheSameAfterPruning(database: TestDatabase, seed: UInt64) async throws {
        let (store, metricsApp, metricsEvents, timeZone) = try await MetricsPropertyTests.randomStore(seed: seed, on: database)
        let (_, pathsApp, pathsEvents, _) = try await PathOracleTests.randomStore(seed: seed, on: database, store: store)
        let zones = Array(Set([timeZone, "UTC", "Asia/Kathmandu", "America/Los_Angeles"])).sorted()
        let before = try await Self.everyMetric(of: store, metricsApp: metricsApp, pathsApp: pathsApp, zones: zones)

        for (app, days) in [(metricsApp, 2), (pathsApp, 13)] {
            _ = try await store.apps.update(app, acceptedEventAge: 86_400, rawRetention: .days(days))
        }
        let pruning = try await store.dataRetention.prune(now: Self.now)
        let horizons = [metricsApp: instant("2026-02-27T00:00:00Z"), pathsApp: instant("2026-02-16T00:00:00Z")]
        #expect(pruning.keptSince == horizons)
        #expect(pruning.deletedEvents > 0)

        let after = try await Self.everyMetric(of: store, metricsApp: metricsApp, pathsApp: pathsApp, zones: zones)
        #expect(after.count == before.count)
        for (index, (old, new)) in zip(before, after).enumerated() {
            #expect(old == new, "seed \(seed), \(database), metric \(index)")
        }
        // And they are those brute force computes from every event ever sent, pruned or not.
        let oracle = MetricsOracle(events: metricsEvents, timeZone: timeZone)
        let first = oracle.day(of: Date(unixMilliseconds: MetricsPropertyTests.start))
        for offset in -1...41 {
            let date = oracle.day(first, offset: offset)
            #expect(
                try await store.metrics.day(ReadScope(app: metricsApp, day: CalendarDay(date)!, timeZone: TimeZone(identifier: timeZone)))
                    == oracle.metrics(date: date, timeZone: timeZone))
        }
        for period in RetentionPeriod.allCases {
            let (from, to) = (first, oracle.day(first, offset: 40))
            #expect(
                try await store.metrics.retention(
                    ReadScope(app: metricsApp, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: timeZone)), period: period)
                    == oracle.retention(from: from, to: to, timeZone: timeZone, period: period))
        }
        for test in PathOracleTests.cases {
            let paths = try await store.metrics.paths(
                from: test.start, kind: test.kind, direction: test.direction, depth: test.depth,
                in: ReadScope(
                    app: pathsApp, days: CalendarDay("2026-02-09")!...CalendarDay("2026-02-23")!, timeZone: TimeZone(identifier: "UTC"),
                    filter: test.filter))
            guard test.filter.isEmpty else { continue }
            let expected = PathOracleTests.expected(
                test, events: Self.deduplicated(pathsEvents), from: instant("2026-02-09T00:00:00Z"), to: instant("2026-02-24T00:00:00Z"))
            #expect(paths.sessions == expected.sessions, "\(test)")
            #expect(paths.levels == expected.levels, "\(test)")
        }
        // The raw events left: exactly each app's (deduplicated) events from its horizon on.
        for (app, events) in [(metricsApp, metricsEvents), (pathsApp, pathsEvents)] {
            let horizon = horizons[app]!
            var kept = Set<UUID>()
            for try await event in store.events.export(app: app, from: .distantPast, to: .distantFuture) { kept.insert(event.id) }
            #expect(kept == Set(events.filter { $0.timestamp >= horizon }.map(\.id)), "seed \(seed), \(database), app \(app.rawValue)")
            #expect(try await store.apps.app(id: app)?.rawEventsKeptSince == horizon)
        }
        // Pruning again deletes nothing more and changes nothing.
        #expect(try await store.dataRetention.prune(now: Self.now).deletedEvents == 0)
    }

    /// The first event of each id, as the store keeps it.
    static func deduplicated(_ events: [Event]) -> [Event] {
        var seen = Set<UUID>()
        return events.filter { seen.insert($0.id).inserted }
    }

    /// Every metric of the two apps, in order, as values to compare.
    static func everyMetric(of store: EventStore, metricsApp: AppID, pathsApp: AppID, zones: [String]) async throws -> [AnyHashable] {
        var metrics: [AnyHashable] = []
        let first = CalendarDay(Date(unixMilliseconds: MetricsPropertyTests.start), in: TimeZone(identifier: "UTC")!)
        let days = (-1...41).map { first.advanced(by: $0).description }
        let versionFilter = SegmentFilter([.is("app_version", "2.0")])
        for zone in zones {
            for date in days {
                metrics.append(try await store.metrics.day(ReadScope(app: metricsApp, day: CalendarDay(date)!, timeZone: TimeZone(identifier: zone))))
                metrics.append(
                    try await store.metrics.day(
                        ReadScope(app: metricsApp, day: CalendarDay(date)!, timeZone: TimeZone(identifier: zone), filter: versionFilter)))
            }
            for (from, to) in [(0, 40), (3, 20), (15, 19), (30, 36)] {
                let (from, to) = (days[from + 1], days[to + 1])
                metrics.append(
                    try await store.metrics.range(
                        ReadScope(app: metricsApp, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: zone))))
                metrics.append(
                    try await store.metrics.range(
                        ReadScope(
                            app: metricsApp, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: zone), filter: versionFilter)
                    ))
                for period in RetentionPeriod.allCases {
                    metrics.append(
                        try await store.metrics.retention(
                            ReadScope(app: metricsApp, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: zone)),
                            period: period))
                }
                let steps: [FunnelStep] = ["open", FunnelStep("screen_view", [.is("screen", "home")]), "purchase"]
                metrics.append(
                    try await store.metrics.funnel(
                        steps, breakdown: "app_version",
                        in: ReadScope(app: metricsApp, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: zone))))
                metrics.append(
                    try await store.metrics.dailyCounts(
                        of: "open", in: ReadScope(app: metricsApp, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: zone)))
                )
            }
            for date in [days[10], days[28]] {
                metrics.append(
                    try await store.metrics.returningUsers(
                        after: [1, 7], in: ReadScope(app: metricsApp, day: CalendarDay(date)!, timeZone: TimeZone(identifier: zone))))
            }
            let (from, to) = ("2026-02-09", "2026-02-23")
            for test in PathOracleTests.cases {
                metrics.append(
                    try await store.metrics.paths(
                        from: test.start, kind: test.kind, direction: test.direction, depth: test.depth,
                        in: ReadScope(
                            app: pathsApp, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: zone), filter: test.filter)))
            }
            for filter in [SegmentFilter([.is("plan", "pro")]), SegmentFilter([.isNot("button", "b1")])] {
                metrics.append(
                    try await store.metrics.range(
                        ReadScope(app: pathsApp, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: zone), filter: filter)))
                metrics.append(
                    try await store.metrics.retention(
                        ReadScope(app: pathsApp, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: zone), filter: filter)))
                metrics.append(
                    try await store.metrics.funnel(
                        ["open", "tap"], breakdown: "plan",
                        in: ReadScope(
                            app: pathsApp, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: zone), filter: filter)))
                for date in ["2026-02-12", "2026-02-18"] {
                    metrics.append(
                        try await store.metrics.day(
                            ReadScope(app: pathsApp, day: CalendarDay(date)!, timeZone: TimeZone(identifier: zone), filter: filter)))
                }
            }
        }
        return metrics
    }
}

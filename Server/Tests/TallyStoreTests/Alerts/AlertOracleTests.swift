import Foundation
import TallyEvent
import TallyStoreTesting
import Testing

@testable import TallyStore

/// Alert rules see the values the metrics define, computed here by brute force from the raw
/// events, in the app's time zone, on both databases.
@Suite struct AlertOracleTests {
    /// Every kind of metric a rule can watch.
    static let metrics: [AlertMetric] = [
        .headline(.dau), .headline(.wau), .headline(.mau), .headline(.newUsers), .headline(.events), .event("tap"), .event("missing"),
        .segment("android"), .funnel(["open", "tap"]),
    ]

    /// The value of `metric` on `day` by brute force.
    static func expected(_ metric: AlertMetric, day: String, events: [Event], timeZone: String) -> Double {
        let oracle = MetricsOracle(events: events, timeZone: timeZone)
        switch metric {
        case .headline(let headline):
            let metrics = oracle.metrics(date: day, timeZone: timeZone)
            switch headline {
            case .dau: return Double(metrics.dau)
            case .wau: return Double(metrics.wau)
            case .mau: return Double(metrics.mau)
            case .newUsers: return Double(metrics.newUsers)
            case .events: return Double(oracle.events.filter { oracle.localDay(of: $0) == day }.count)
            }
        case .event(let name):
            return Double(oracle.events.filter { oracle.localDay(of: $0) == day && $0.name == name }.count)
        case .segment:
            return Double(Set(oracle.events.filter { oracle.localDay(of: $0) == day && $0.platform == "Android" }.map(\.userID)).count)
        case .funnel(let steps):
            let (begin, end) = (start(of: day, timeZone: timeZone), start(of: oracle.day(day, offset: 1), timeZone: timeZone))
            let funnel = FunnelOracleTests.expected(
                FunnelOracleTests.Case(steps: steps, window: 86_400), events: oracle.events, from: begin, to: end,
                properties: SegmentOracleTests.properties, all: oracle.events)
            guard funnel[0].users > 0 else { return 0 }
            return Double(funnel[1].users) / Double(funnel[0].users) * 100
        }
    }

    static func start(of day: String, timeZone: String) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timeZone)!
        let parts = day.split(separator: "-").map { Int($0)! }
        return calendar.startOfDay(for: calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12))!)
    }

    /// A random store whose app is in the test's time zone, with the saved segment `android`.
    static func randomStore(seed: UInt64, on database: TestDatabase) async throws -> (
        store: EventStore, app: App, events: [Event], timeZone: String
    ) {
        let (store, id, events, timeZone) = try await SegmentOracleTests.randomStore(seed: seed, on: database)
        let app = try await store.apps.update(id, timeZone: timeZone)
        try await store.segments.save(app: id, name: "android", filter: SegmentFilter([.is("platform", "Android")]))
        return (store, app, events, timeZone)
    }

    @Test(arguments: TestDatabase.all, 1...4 as ClosedRange<UInt64>)
    func valuesMatchBruteForce(database: TestDatabase, seed: UInt64) async throws {
        let (store, app, events, timeZone) = try await Self.randomStore(seed: seed, on: database)
        let first = MetricsOracle(events: events, timeZone: timeZone).day(of: Date(unixMilliseconds: MetricsPropertyTests.start))
        for offset in [0, 9, 26] {
            let day = MetricsOracle(events: events, timeZone: timeZone).day(first, offset: offset)
            for metric in Self.metrics {
                let value = try await store.alerts.value(of: metric, app: app.id, day: CalendarDay(day)!)
                #expect(value == Self.expected(metric, day: day, events: events, timeZone: timeZone), "seed \(seed), \(timeZone), \(day), \(metric)")
            }
        }
    }

    /// A `change` rule evaluated at the end of a day compares the day with the same weekday a
    /// week earlier, both by brute force; it fires exactly when they differ by more than N%.
    @Test(arguments: TestDatabase.all, 1...4 as ClosedRange<UInt64>)
    func endOfDayEvaluationsFireAsTheOracleSays(database: TestDatabase, seed: UInt64) async throws {
        let (store, app, events, timeZone) = try await Self.randomStore(seed: seed, on: database)
        let schedule = AlertSchedule(timeZone: TimeZone(identifier: timeZone)!)
        let oracle = MetricsOracle(events: events, timeZone: timeZone)
        let first = oracle.day(of: Date(unixMilliseconds: MetricsPropertyTests.start))
        // Every end of day from the second week on, across the US DST change of 2026-03-08.
        for offset in 8...30 {
            let day = oracle.day(first, offset: offset)
            let slot = schedule.slot(at: Self.start(of: oracle.day(day, offset: 1), timeZone: timeZone))
            #expect(slot.endsDay && slot.day.description == day, "\(timeZone) \(day)")
            for metric in [AlertMetric.headline(.dau), .event("tap")] {
                let rule = try AlertRule(name: "r", metric: metric, condition: .change(percent: 20), webhook: "http://127.0.0.1:1/", secret: "s")
                let evaluation = try #require(try await store.alerts.evaluate(rule, app: app.id, at: slot))
                let value = Self.expected(metric, day: day, events: events, timeZone: timeZone)
                let previous = Self.expected(metric, day: oracle.day(day, offset: -7), events: events, timeZone: timeZone)
                #expect(evaluation.value == value && evaluation.previous == previous, "\(timeZone) \(day) \(metric)")
                let fires = previous == 0 ? value != 0 : abs(value - previous) / previous > 0.2
                #expect(evaluation.fired == fires, "\(timeZone) \(day) \(metric): \(value) against \(previous)")
            }
        }
    }
}

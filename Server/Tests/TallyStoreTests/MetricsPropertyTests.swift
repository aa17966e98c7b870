import Foundation
import SeededRandom
import TallyEvent
import TallyStoreTesting
import Testing

@testable import TallyStore

/// Random data, metrics compared field by field with ``MetricsOracle``. Each seed picks its
/// own time zone, so a failure reproduces from the seed alone.
@Suite struct MetricsPropertyTests {
    static let timeZones = ["UTC", "Asia/Shanghai", "America/New_York", "Asia/Kathmandu"]

    /// A store holding one app's random events (resent some, batched at random) over 40
    /// days from `start`, and the time zone the seed picks for reading them.
    static func randomStore(seed: UInt64, on database: TestDatabase) async throws -> (
        store: EventStore, app: AppID, events: [Event], timeZone: String
    ) {
        var random = SplitMix64(seed: seed)
        let timeZone = Self.timeZones[Int(seed) % Self.timeZones.count]
        let appTimeZone = Self.timeZones.randomElement(using: &random)!
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Random", timeZone: appTimeZone).app.id

        // 40 days spanning the US DST change of 2026-03-08; timestamps on a 7.5-minute grid
        // plus jitter, so many fall exactly on bucket edges and some tie.
        var events: [Event] = []
        for _ in 0..<Int.random(in: 1_500...3_000, using: &random) {
            let name = ["open", "tap", "purchase", "screen_view", "screen_view"].randomElement(using: &random)!
            let grid = Int64.random(in: 0..<(40 * 24 * 8), using: &random) * 450_000
            let jitter = Bool.random(using: &random) ? 0 : Int64.random(in: -2...2, using: &random)
            var properties: [String: PropertyValue] = [:]
            if name == "screen_view" {
                properties["screen"] = [.string("home"), .string("cart"), .string("settings"), .int(3), nil]
                    .randomElement(using: &random)!
            }
            events.append(
                event(
                    id: .random(using: &random),
                    name: name,
                    at: Date(unixMilliseconds: Self.start + grid + jitter),
                    user: "user\(Int.random(in: 0..<(10 + 3 * Int(grid / 86_400_000)), using: &random))",  // new users every day
                    version: ["1.0", "1.1", "2.0"].randomElement(using: &random)!,
                    properties: properties))
        }
        // Resend some events, in later batches and within the same batch.
        events += (0..<200).map { _ in events.randomElement(using: &random)! }
        var inserted = 0
        while inserted < events.count {
            let size = min(Int.random(in: 1...120, using: &random), events.count - inserted)
            let batch = Array(events[inserted..<inserted + size])
            try await store.events.insert(batch + (Bool.random(using: &random) ? [batch[0]] : []), app: app)
            inserted += size
        }

        return (store, app, events, timeZone)
    }

    /// The start of the random data's 40 days.
    static let start = instant("2026-02-10T00:00:00Z").unixMilliseconds

    @Test(arguments: TestDatabase.all, 1...8 as ClosedRange<UInt64>)
    func metricsMatchBruteForce(database: TestDatabase, seed: UInt64) async throws {
        let (store, app, events, timeZone) = try await Self.randomStore(seed: seed, on: database)
        let oracle = MetricsOracle(events: events, timeZone: timeZone)
        let days = (-1...41).map { oracle.day(oracle.day(of: Date(unixMilliseconds: Self.start)), offset: $0) }
        for date in days {
            let metrics = try await store.metrics.day(ReadScope(app: app, day: CalendarDay(date)!, timeZone: TimeZone(identifier: timeZone)))
            #expect(metrics == oracle.metrics(date: date, timeZone: timeZone), "seed \(seed), \(timeZone), \(date)")
        }

        let range = try await store.metrics.range(
            ReadScope(app: app, days: CalendarDay(days.first!)!...CalendarDay(days.last!)!, timeZone: TimeZone(identifier: timeZone)))
        let expected = days.map { oracle.metrics(date: $0, timeZone: timeZone) }
        #expect(range.dates == days)
        #expect(range.dau == expected.map(\.dau), "seed \(seed)")
        for (first, last) in [(0, 6), (3, 20), (12, 13), (30, 36)] {
            let (from, to) = (
                oracle.day(oracle.day(of: Date(unixMilliseconds: MetricsPropertyTests.start)), offset: first),
                oracle.day(oracle.day(of: Date(unixMilliseconds: MetricsPropertyTests.start)), offset: last)
            )
            let part = try await store.metrics.range(
                ReadScope(app: app, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: timeZone)))
            let users = oracle.rangeUsers(from: from, to: to)
            #expect((part.users, part.newUsers) == users, "seed \(seed), \(from)…\(to)")
            let screens = try await store.metrics.screenViews(
                ReadScope(app: app, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: timeZone)))
            #expect(screens == oracle.screenViews(from: from, to: to), "seed \(seed), \(from)…\(to)")
            let versions = try await store.metrics.versionUsers(
                ReadScope(app: app, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: timeZone)))
            #expect(versions == oracle.versionUsers(from: from, to: to), "seed \(seed), \(from)…\(to)")
        }
        for name in Set(oracle.events.map(\.name)) {
            #expect(range.events[name] == expected.map { $0.events[name] ?? 0 }, "seed \(seed), \(name)")
        }
    }

    @Test(arguments: TestDatabase.all, 1...8 as ClosedRange<UInt64>)
    func retentionMatchesBruteForce(database: TestDatabase, seed: UInt64) async throws {
        let (store, app, events, timeZone) = try await Self.randomStore(seed: seed, on: database)
        let oracle = MetricsOracle(events: events, timeZone: timeZone)
        let first = oracle.day(of: Date(unixMilliseconds: Self.start))
        // Windows before, across and after the data, starting on different weekdays.
        for (from, to) in [(-1, 41), (3, 17), (10, 10), (38, 45)] {
            for period in RetentionPeriod.allCases {
                let (from, to) = (oracle.day(first, offset: from), oracle.day(first, offset: to))
                let retention = try await store.metrics.retention(
                    ReadScope(app: app, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: timeZone)), period: period)
                #expect(
                    retention == oracle.retention(from: from, to: to, timeZone: timeZone, period: period), "seed \(seed), \(from)…\(to) by \(period)")
            }
        }
    }

    /// Single cells read from one day's activity equal the whole matrix's.
    @Test(arguments: TestDatabase.all, 1...4 as ClosedRange<UInt64>)
    func returningUsersAreTheMatrixCells(database: TestDatabase, seed: UInt64) async throws {
        let (store, app, events, timeZone) = try await Self.randomStore(seed: seed, on: database)
        let oracle = MetricsOracle(events: events, timeZone: timeZone)
        let first = oracle.day(of: Date(unixMilliseconds: Self.start))
        let days = [1, 2, 7, 30, 7]
        for offset in [0, 8, 31, 39] {
            let date = oracle.day(first, offset: offset)
            let matrix = try await store.metrics.retention(
                ReadScope(app: app, days: CalendarDay(oracle.day(date, offset: -30))!...CalendarDay(date)!, timeZone: TimeZone(identifier: timeZone)))
            let groups = try await store.metrics.returningUsers(
                after: days, in: ReadScope(app: app, day: CalendarDay(date)!, timeZone: TimeZone(identifier: timeZone)))
            #expect(groups.map(\.days) == days)
            for group in groups {
                let cohort = matrix.cohorts[matrix.cohorts.count - 1 - group.days]
                #expect((group.firstSeen, group.returned) == (cohort.size, cohort.returning[group.days - 1]), "seed \(seed), \(date), \(group.days)")
            }
        }
        for bad in [0, -1, ReadScope.maximumDays + 1] {
            await #expect(throws: TallyStoreError.self) {
                try await store.metrics.returningUsers(after: [bad], in: ReadScope(app: app, day: CalendarDay(first)!))
            }
        }
    }
}

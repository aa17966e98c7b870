import Foundation
import SeededRandom
import TallyEvent
import TallyStoreTesting
import Testing

@testable import TallyStore

/// The configured metrics over raw events, compared with ``MetricsOracle`` on random data.
/// Each seed picks its own time zone, so a failure reproduces from the seed alone.
@Suite struct PropertyMetricsTests {
    static let timeZones = ["Asia/Kathmandu", "America/New_York", "UTC"]
    static let properties = ["amount", "note", "screen", "price", "a.\"b c"]

    @Test(arguments: TestDatabase.all, 1...6 as ClosedRange<UInt64>)
    func propertyMetricsMatchBruteForce(database: TestDatabase, seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        let timeZone = Self.timeZones[Int(seed) % Self.timeZones.count]
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Random", timeZone: timeZone).app.id

        // Six days around the US DST change of 2026-03-08, on a 7.5-minute grid plus jitter so
        // that many events fall on bucket (and Kathmandu's +05:45 day) edges.
        let start = instant("2026-03-05T00:00:00Z").unixMilliseconds
        var events: [Event] = []
        for _ in 0..<Int.random(in: 800...1_500, using: &random) {
            var properties: [String: PropertyValue] = [:]
            for key in Self.properties where Int.random(in: 0..<5, using: &random) > 0 {
                properties[key] = Self.randomValue(for: key, using: &random)
            }
            let grid = Int64.random(in: 0..<(6 * 24 * 8), using: &random) * 450_000
            events.append(
                event(
                    id: .random(using: &random),
                    name: ["bill_created", "bill_created", "screen_view", "open"].randomElement(using: &random)!,
                    at: Date(unixMilliseconds: start + grid + (Bool.random(using: &random) ? 0 : Int64.random(in: -2...2, using: &random))),
                    user: "user\(Int.random(in: 0..<30, using: &random))",
                    properties: properties))
        }
        events += (0..<100).map { _ in events.randomElement(using: &random)! }
        for first in stride(from: 0, to: events.count, by: 97) {
            try await store.events.insert(Array(events[first..<min(first + 97, events.count)]), app: app)
        }

        let oracle = MetricsOracle(events: events, timeZone: timeZone)
        let days = (-1...6).map { oracle.day(oracle.day(of: Date(unixMilliseconds: start)), offset: $0) }
        for date in days {
            for name in ["bill_created", "screen_view", "nothing"] {
                let context = "seed \(seed), \(timeZone), \(date), \(name)"
                for property in Self.properties + ["absent"] {
                    if property != "price" {  // sums of full-precision doubles depend on their order
                        #expect(
                            try await store.metrics.average(
                                of: property, event: name, in: ReadScope(app: app, day: CalendarDay(date)!, timeZone: TimeZone(identifier: timeZone)))
                                == oracle.propertyAverage(event: name, property: property, date: date), "\(context), \(property)")
                    }
                    #expect(
                        try await store.metrics.emptyShare(
                            of: property, event: name, in: ReadScope(app: app, day: CalendarDay(date)!, timeZone: TimeZone(identifier: timeZone)))
                            == oracle.emptyPropertyShare(event: name, property: property, date: date), "\(context), \(property)")
                    let limit = Int.random(in: 1...8, using: &random)
                    #expect(
                        try await store.metrics.breakdown(
                            event: name, by: property, limit: limit,
                            in: ReadScope(app: app, day: CalendarDay(date)!, timeZone: TimeZone(identifier: timeZone)))
                            == oracle.breakdown(event: name, property: property, date: date, limit: limit), "\(context), \(property)")
                }
                #expect(
                    try await store.metrics.distinctUsers(
                        of: name, in: ReadScope(app: app, day: CalendarDay(date)!, timeZone: TimeZone(identifier: timeZone)))
                        == oracle.dailyCount(event: name, date: date).users, "\(context)")
            }
        }
        for name in ["bill_created", "open", "nothing"] {
            #expect(
                try await store.metrics.dailyCounts(
                    of: name,
                    in: ReadScope(app: app, days: CalendarDay(days.first!)!...CalendarDay(days.last!)!, timeZone: TimeZone(identifier: timeZone)))
                    == days.map { oracle.dailyCount(event: name, date: $0) }, "seed \(seed), \(timeZone), \(name)")
        }
    }

    /// A value for `key`: numbers whose sums are exact in any order for `amount`, full-precision
    /// doubles for `price`, white space of every kind for `note`, and every JSON scalar type.
    static func randomValue(for key: String, using random: inout SplitMix64) -> PropertyValue {
        switch key {
        case "amount":
            [
                .double(Double(Int.random(in: -400...4_000, using: &random)) / 4), .int(Int.random(in: 0...9, using: &random)),
                .string("12"), .bool(true), .null,
            ].randomElement(using: &random)!
        case "note":
            [
                .string(""), .string(" "), .string("\t\n"), .string("\u{3000}\u{A0}"), .string("\u{200B}"), .string(" lunch "),
                .string("lunch"), .int(0), .null,
            ].randomElement(using: &random)!
        case "price":
            [.double(Double.random(in: -1e6...1e6, using: &random)), .double(1e20), .double(-0.000_01), .int(3), .double(3)]
                .randomElement(using: &random)!
        default:
            [
                .string("Home"), .string("Budget"), .string("3"), .int(3), .double(2.5), .double(3), .bool(false), .bool(true),
                .string("ホーム"), .null,
            ].randomElement(using: &random)!
        }
    }

    @Test(arguments: TestDatabase.all) func breakdownRendersValuesAsSentAndSplitsTheRest(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Demo").app.id
        let noon = instant("2026-03-01T12:00:00Z")
        let values: [(PropertyValue?, String)] = [
            (.int(3), "u1"), (.string("3"), "u2"), (.int(3), "u1"), (.double(0.1), "u1"), (.bool(true), "u3"),
            (.double(1e20), "u2"), (.double(-0.5), "u4"), (.null, "u1"), (nil, "u5"),
        ]
        try await store.events.insert(
            values.map { value, user in event(name: "tap", at: noon, user: user, properties: value.map { ["v": $0] } ?? [:]) },
            app: app)
        let breakdown = try await store.metrics.breakdown(event: "tap", by: "v", limit: 2, in: ReadScope(app: app, day: CalendarDay("2026-03-01")!))
        #expect(breakdown.top == [.init(value: "3", events: 3, users: 2), .init(value: "-0.5", events: 1, users: 1)])
        #expect((breakdown.otherValues, breakdown.otherEvents, breakdown.otherUsers, breakdown.missing) == (3, 3, 3, 2))
        let all = try await store.metrics.breakdown(event: "tap", by: "v", limit: .max, in: ReadScope(app: app, day: CalendarDay("2026-03-01")!))
        #expect(all.top.map(\.value) == ["3", "-0.5", "0.1", "1e+20", "true"])
        let clamped = try await store.metrics.breakdown(event: "tap", by: "v", limit: -3, in: ReadScope(app: app, day: CalendarDay("2026-03-01")!))
        #expect(clamped.top.count == 1)
    }

    @Test(arguments: TestDatabase.all) func latestEventsAreNewestFirstAndClamped(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Demo").app.id
        let other = try await store.apps.create(name: "Other").app.id
        let start = instant("2026-03-01T12:00:00Z")
        let events = (0..<600).map { event(name: "e\($0)", at: start.addingTimeInterval(Double($0 % 300)), properties: ["n": .int($0)]) }
        try await store.events.insert(events.shuffled(), app: app)
        try await store.events.insert([event(at: start.addingTimeInterval(10_000))], app: other)

        let latest = try await store.events.latest(app: app, limit: 3)
        #expect(latest.count == 3)
        #expect(latest.map(\.timestamp) == [299, 299, 298].map { start.addingTimeInterval($0) })
        #expect(Set(latest.prefix(2).map(\.name)) == ["e299", "e599"])
        let all = try await store.events.latest(app: app, limit: 10_000)
        #expect(all.count == EventLog.maximumLatestEvents)
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.timestamp >= $1.timestamp })
        #expect(try await store.events.latest(app: app, limit: 0).count == 1)
        await #expect(throws: TallyStoreError.unknownApp(AppID(rawValue: 9))) { try await store.events.latest(app: AppID(rawValue: 9)) }
    }

    @Test(arguments: TestDatabase.all) func inputErrorsThrow(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Demo").app.id
        await #expect(throws: TallyStoreError.unknownApp(AppID(rawValue: 7))) {
            try await store.metrics.emptyShare(of: "p", event: "e", in: ReadScope(app: AppID(rawValue: 7), day: CalendarDay("2026-03-01")!))
        }
        await #expect(throws: TallyStoreError.invalidRange(from: "2025-01-01", to: "2026-01-02")) {
            try await store.metrics.dailyCounts(of: "e", in: ReadScope(app: app, days: CalendarDay("2025-01-01")!...CalendarDay("2026-01-02")!))
        }
        let year = try await store.metrics.dailyCounts(
            of: "e", in: ReadScope(app: app, days: CalendarDay("2025-01-02")!...CalendarDay("2026-01-02")!))
        #expect(year.count == ReadScope.maximumDays && year.allSatisfy { $0.events == 0 && $0.users == 0 })
        #expect(
            try await store.metrics.average(of: "p", event: "e", in: ReadScope(app: app, day: CalendarDay("2026-03-01")!))
                == NumericSummary(count: 0, average: nil, maximum: nil))
    }
}

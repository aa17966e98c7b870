import Foundation
import SeededRandom
import TallyEvent
import TallyStoreTesting
import Testing

@testable import TallyStore

/// Revenue compared with brute force over random purchases: hostile amounts and currencies,
/// refunds, purchases sent twice, users paying in several currencies and before the range,
/// under filters on event and user properties, in several time zones, on both databases.
@Suite struct RevenueOracleTests {
    /// Each hostile `revenue` value and the millionths it is worth, `nil` when refused.
    static let amounts: [(value: PropertyValue?, micros: Int64?)] = [
        (.int(5), 5_000_000),
        (.double(9.99), 9_990_000),
        (.string("19.990"), 19_990_000),
        (.string("-4.5"), -4_500_000),
        (.int(-3), -3_000_000),
        (.int(0), 0),
        (.string("0.000001"), 1),
        (.double(1_234_567.891), 1_234_567_891_000),
        (.string("1e3"), 1_000_000_000),
        (.double(0.1 + 0.2), nil),
        (.string("1.0000001"), nil),
        (.double(1e-7), nil),
        (.int(Int.max), nil),
        (.string("1000000000001"), nil),
        (.string("9.99 EUR"), nil),
        (.string(""), nil),
        (.string("."), nil),
        (.bool(true), nil),
        (.double(.infinity), nil),
        (.null, nil),
        (nil, nil),
    ]

    /// Each `currency` value and the code it is stored as, `nil` when refused.
    static let currencies: [(value: PropertyValue?, code: String?)] = [
        (.string("EUR"), "EUR"), (.string("EUR"), "EUR"), (.string("usd"), "USD"), (.string("Jpy"), "JPY"),
        (.string("EURO"), nil), (.string("€"), nil), (.int(978), nil), (nil, nil),
    ]

    static let filters: [SegmentFilter] = [
        SegmentFilter(),
        SegmentFilter([.is("app_version", "2.0")]),
        SegmentFilter([.isNot("button", "b1")]),
        SegmentFilter([.is("plan", "pro")]),
        SegmentFilter([.is("platform", "iOS"), .isNot("plan", "free")]),
    ]

    /// Random purchases and other events of 30 users over 12 days, the purchase event named
    /// `subscribe` for odd seeds.
    static func randomStore(seed: UInt64, on database: TestDatabase) async throws -> (
        store: EventStore, app: AppID, events: [Event], timeZone: String, purchaseEvent: String
    ) {
        var random = SplitMix64(seed: seed &* 7_919)
        let timeZone = MetricsPropertyTests.timeZones[Int(seed) % MetricsPropertyTests.timeZones.count]
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Revenue").app.id
        let purchaseEvent = seed % 2 == 0 ? App.defaultPurchaseEvent : "subscribe"
        _ = try await store.apps.update(app, segmentProperties: SegmentOracleTests.properties, purchaseEvent: seed % 2 == 0 ? nil : purchaseEvent)
        var events: [Event] = []
        for _ in 0..<600 {
            let user = "user\(Int.random(in: 0..<30, using: &random))"
            let time = MetricsPropertyTests.start + Int64.random(in: 0..<(12 * 86_400_000), using: &random)
            let name = ["purchase", "subscribe", "purchase", "subscribe", "open", "identify"].randomElement(using: &random)!
            var properties: [String: PropertyValue] = [:]
            switch name {
            case "identify": properties["plan"] = [.string("free"), .string("pro")].randomElement(using: &random)!
            case "open": break
            default:
                // Most purchases are valid.
                let amount =
                    Int.random(in: 0..<3, using: &random) > 0
                    ? amounts[Int.random(in: 0..<9, using: &random)] : amounts.randomElement(using: &random)!
                let currency =
                    Int.random(in: 0..<4, using: &random) > 0
                    ? currencies[Int.random(in: 0..<4, using: &random)] : currencies.randomElement(using: &random)!
                properties["revenue"] = amount.value
                properties["currency"] = currency.value
                properties["button"] = [.string("b1"), .string("b2"), nil].randomElement(using: &random)!
            }
            events.append(
                Event(
                    id: .random(using: &random), name: name, timestamp: Date(unixMilliseconds: time), userID: user, sessionID: "s",
                    appVersion: ["1.0", "2.0"].randomElement(using: &random)!, platform: ["iOS", "Android"].randomElement(using: &random)!,
                    properties: properties))
        }
        events += (0..<40).map { _ in events.randomElement(using: &random)! }
        var inserted = 0
        while inserted < events.count {
            let size = min(Int.random(in: 1...90, using: &random), events.count - inserted)
            try await store.events.insert(Array(events[inserted..<inserted + size]), app: app)
            inserted += size
        }
        return (store, app, events, timeZone, purchaseEvent)
    }

    /// The purchase of `event`, straight from the tables above.
    static func purchase(of event: Event) -> (currency: String, micros: Int64)? {
        guard let amount = amounts.first(where: { $0.value == event.properties["revenue"] })?.micros,
            let code = currencies.first(where: { $0.value == event.properties["currency"] })?.code
        else { return nil }
        return (code, amount)
    }

    /// `micros` millionths as the API writes them.
    static func decimal(_ micros: Int64) -> String {
        (Decimal(micros) / Decimal(1_000_000)).description
    }

    /// `revenue` over `users` millionths, rounded to 6 places, halves away from zero.
    static func average(_ revenue: Int64, _ users: Int) -> String {
        var quotient = Decimal(revenue) / Decimal(1_000_000) / Decimal(users)
        var rounded = Decimal()
        NSDecimalRound(&rounded, &quotient, 6, .plain)
        return rounded.description
    }

    /// The revenue of `events` from `from` through `to`, straight from the definitions.
    static func expected(
        _ oracle: MetricsOracle, all: [Event], purchaseEvent: String, from: String, to: String, timeZone: String
    ) -> RevenueMetrics {
        var seen = Set<UUID>()
        let unique = all.filter { seen.insert($0.id).inserted }
        // Every user's first positive purchase ever, whatever the filter.
        var firstPaid: [String: Date] = [:]
        for event in unique where event.name == purchaseEvent {
            guard let purchase = purchase(of: event), purchase.micros > 0 else { continue }
            firstPaid[event.userID] = min(firstPaid[event.userID] ?? event.timestamp, event.timestamp)
        }
        let purchases = oracle.events.filter { $0.name == purchaseEvent }.compactMap { event in
            purchase(of: event).map { (event: event, day: oracle.localDay(of: event), currency: $0.currency, micros: $0.micros) }
        }
        var dates: [String] = [from]
        while dates.last! < to { dates.append(oracle.day(dates.last!, offset: 1)) }
        func payers(on days: Set<String>, currency: String? = nil) -> Set<String> {
            Set(purchases.filter { days.contains($0.day) && $0.micros > 0 && (currency == nil || $0.currency == currency) }.map(\.event.userID))
        }
        func firstTime(_ users: Set<String>, on days: Set<String>) -> Int {
            users.filter { days.contains(oracle.day(of: firstPaid[$0]!)) }.count
        }
        let all = Set(dates)
        var currencies: [String: RevenueMetrics.Currency] = [:]
        for code in Set(purchases.filter { all.contains($0.day) }.map(\.currency)) {
            let inCurrency = purchases.filter { $0.currency == code }
            let revenue = inCurrency.filter { all.contains($0.day) }.map(\.micros).reduce(0, +)
            let users = payers(on: all, currency: code).count
            currencies[code] = RevenueMetrics.Currency(
                revenue: decimal(revenue), payingUsers: users, averageRevenuePerPayingUser: users == 0 ? nil : average(revenue, users),
                dailyRevenue: dates.map { day in decimal(inCurrency.filter { $0.day == day }.map(\.micros).reduce(0, +)) })
        }
        return RevenueMetrics(
            from: from, to: to, timeZone: timeZone, purchaseEvent: purchaseEvent, dates: dates,
            payingUsers: payers(on: all).count, firstTimePayers: firstTime(payers(on: all), on: all),
            dailyPayingUsers: dates.map { payers(on: [$0]).count },
            dailyFirstTimePayers: dates.map { firstTime(payers(on: [$0]), on: [$0]) }, currencies: currencies)
    }

    @Test(arguments: TestDatabase.all, 1...4 as ClosedRange<UInt64>)
    func revenueMatchesBruteForce(database: TestDatabase, seed: UInt64) async throws {
        let (store, app, events, timeZone, purchaseEvent) = try await Self.randomStore(seed: seed, on: database)
        var checked = (currencies: 0, firstTime: 0, refunds: 0)
        for filter in Self.filters {
            let oracle = MetricsOracle(
                events: events, timeZone: timeZone, matching: MetricsOracle.matching(filter, properties: SegmentOracleTests.properties))
            let first = oracle.day(of: Date(unixMilliseconds: MetricsPropertyTests.start))
            for (from, to) in [(oracle.day(first, offset: 3), oracle.day(first, offset: 8)), (first, oracle.day(first, offset: 12)), (first, first)] {
                let revenue = try await store.metrics.revenue(
                    ReadScope(app: app, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: timeZone), filter: filter))
                let expected = Self.expected(oracle, all: events, purchaseEvent: purchaseEvent, from: from, to: to, timeZone: timeZone)
                #expect(revenue == expected, "seed \(seed), \(database), \(timeZone), \(from)…\(to), \(filter)")
                checked.currencies += revenue.currencies.count
                checked.firstTime += revenue.firstTimePayers
                checked.refunds +=
                    revenue.currencies.values.filter { $0.revenue.hasPrefix("-") || $0.dailyRevenue.contains { $0.hasPrefix("-") } }.count
            }
        }
        // Not vacuous: several currencies, first-time payers, and days of refunds are seen.
        #expect(checked.currencies >= 20 && checked.firstTime > 0 && checked.refunds > 0)
    }

    /// The purchase events that carry no purchase are counted in the data health, by reason,
    /// and the others are not.
    @Test(arguments: TestDatabase.all)
    func refusedPurchasesAreCountedInTheDataHealth(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Health").app.id
        let now = Date()
        let events = [
            event(name: "purchase", at: now, properties: ["revenue": .string("x"), "currency": "EUR"]),
            event(name: "purchase", at: now, properties: ["currency": "EUR"]),
            event(name: "purchase", at: now, properties: ["revenue": 5, "currency": "EURO"]),
            event(name: "purchase", at: now, properties: ["revenue": .double(0.1 + 0.2), "currency": "EUR"]),
            event(name: "purchase", at: now, properties: ["revenue": 5, "currency": "EUR"]),
            event(name: "refund", at: now, properties: ["revenue": "x"]),
        ]
        try await store.events.insert(events, app: app)
        let health = try await store.metrics.dataHealth(
            ReadScope(app: app, day: CalendarDay(ISO8601DateFormatter.day(of: now))!, timeZone: TimeZone(identifier: "UTC")))
        #expect(
            health.ignoredPurchases == [
                Purchase.Problem.invalidRevenue.rawValue: 2, Purchase.Problem.missingRevenue.rawValue: 1,
                Purchase.Problem.invalidCurrency.rawValue: 1,
            ])
    }

    /// A user's purchases are found by their number: the rows a deletion of the user removes.
    @Test(arguments: TestDatabase.all)
    func purchasesCarryTheirUsersNumber(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Users").app.id
        let day = instant("2026-03-01T10:00:00Z")
        // "a" is numbered first, in a commit of its own; "b" next.
        try await store.events.insert([event(name: "open", at: day, user: "a")], app: app)
        try await store.events.insert(
            [
                event(name: "purchase", at: day, user: "b", properties: ["revenue": 3, "currency": "EUR"]),
                event(name: "purchase", at: day.addingTimeInterval(60), user: "a", properties: ["revenue": "2.5", "currency": "eur"]),
            ], app: app)
        let revenue = try await store.metrics.revenue(
            ReadScope(app: app, days: CalendarDay("2026-03-01")!...CalendarDay("2026-03-01")!, timeZone: TimeZone(identifier: "UTC")))
        #expect(revenue.currencies["EUR"]?.revenue == "5.5")
        #expect(revenue.currencies["EUR"]?.averageRevenuePerPayingUser == "2.75")
        let rows = try await store.backend.readRollups(app: app) { _ in
            RollupNeeds(purchases: 0..<Int64.max)
        } body: { reader, _ in
            try reader.rows.purchases(in: 0..<Int64.max).rows
        }
        #expect(rows.map(\.user) == [1, 0])
        #expect(rows.map(\.micros) == [3_000_000, 2_500_000])
    }
}

extension ISO8601DateFormatter {
    /// The UTC day of `date`, as `YYYY-MM-DD`.
    static func day(of date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }
}

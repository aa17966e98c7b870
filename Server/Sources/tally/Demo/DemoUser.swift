import Foundation
import SeededRandom
import TallyTracker

/// One simulated user of the demo's bookkeeping app: when they joined, how often they
/// come back, which app versions they ran, and every event they sent.
struct DemoUser {
    struct PlannedEvent {
        let time: Date
        let name: String
        let properties: [String: PropertyValue]
    }

    /// The events sent while the user ran one app version.
    struct Era {
        let version: String
        var events: [PlannedEvent] = []
    }

    let userID: String
    let platform: String
    /// The plan the user pays for: `free`, `pro` or `team`, told by an `identify` event on
    /// their first session and again when they upgrade.
    private(set) var plan: String
    /// The day (from the first demo day) a free user moves to `pro`, if they do.
    private let upgradeDay: Int?
    /// The day (from the first demo day) the paid plan's next month is due: the user
    /// purchases it on their first session from then on.
    private var renewalDay = 0
    private(set) var eras: [Era] = []

    /// Versions and the day (from the first demo day) each was released.
    private static let releases = [("3.0.0", 0), ("3.1.0", 12), ("3.2.0", 27), ("3.3.0", 44)]
    private static let labels = ["food", "work", "family"]
    private static let notes = ["breakfast", "lunch", "dinner", "coffee", "metro", "groceries", "rent", "movie", "taxi"]
    /// A month of each paid plan, per currency.
    private static let prices = ["USD": ["pro": "3.99", "team": "12.99"], "CNY": ["pro": "28.00", "team": "88.00"]]
    private static let screens = [("Statistics", 0.4), ("Budget", 0.2), ("Calendar", 0.15), ("Settings", 0.1)]

    init(number: Int, firstDay: Date, days: Int, random: inout SplitMix64) {
        userID = String(format: "user-%04d", number)
        platform = random.chance(0.7) ? "ios" : "android"
        let joined = number < days ? Int.random(in: 0...3, using: &random) : Int.random(in: 0..<(days - 5), using: &random)
        let loyalty = Double.random(in: 0.25...0.85, using: &random)
        let upgradeDelays = Self.releases.map { _ in random.chance(0.15) ? Int.max : Int.random(in: 0...10, using: &random) }
        plan = random.chance(0.6) ? "free" : random.chance(0.75) ? "pro" : "team"
        upgradeDay = plan == "free" && random.chance(0.2) ? Int.random(in: joined..<days, using: &random) : nil

        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: DemoData.timeZone)!
        var isFirstSession = true
        for day in joined..<days {
            let age = Double(day - joined)
            guard day == joined || random.chance(loyalty * (0.55 + 0.45 * exp(-age / 25))) else { continue }
            let version = Self.version(onDay: day, joined: joined, delays: upgradeDelays)
            if eras.last?.version != version { eras.append(Era(version: version)) }
            let midnight = calendar.date(byAdding: .day, value: day, to: firstDay)!
            let sessions = Int.random(in: 1...3, using: &random)
            for hour in Self.sessionHours(sessions, random: &random) {
                var time = midnight.addingTimeInterval(Double(hour) * 3600 + Double.random(in: 0..<3000, using: &random))
                let upgrades = upgradeDay.map { day >= $0 && plan == "free" } ?? false
                if upgrades { plan = "pro" }
                let pays = plan != "free" && day >= renewalDay
                if pays { renewalDay = day + 30 }
                session(at: &time, first: isFirstSession, identifies: isFirstSession || upgrades, pays: pays, random: &random)
                isFirstSession = false
            }
        }
    }

    /// One session from `time`: a login on the first (and now and then later), an `identify`
    /// with the user's plan when `identifies`, a month of the plan when `pays`, the home
    /// screen, bills, other screens, ads.
    private mutating func session(at time: inout Date, first: Bool, identifies: Bool, pays: Bool, random: inout SplitMix64) {
        func send(_ name: String, _ properties: [String: PropertyValue] = [:]) {
            eras[eras.count - 1].events.append(PlannedEvent(time: time, name: name, properties: properties))
            time.addTimeInterval(Double.random(in: 5...90, using: &random))
        }
        // Sent with the SDK's identify(_:properties:) (see DemoData.fill).
        if identifies { send("identify", ["plan": .string(plan)]) }
        if pays {
            // A month of the plan, in the store's currency: the App Store's in dollars, the
            // others' in yuan; now and then refunded at once.
            let price = Self.prices[platform == "ios" ? "USD" : "CNY"]![plan]!
            let purchase: [String: PropertyValue] = [
                "revenue": .string(price), "currency": .string(platform == "ios" ? "USD" : "CNY"), "plan": .string(plan),
            ]
            send("purchase", purchase)
            if random.chance(0.03) { send("purchase", purchase.merging(["revenue": .string("-" + price)]) { $1 }) }
        }
        if first || random.chance(0.04) {
            send("login", ["method": .string(["phone", "wechat", "apple"].randomElement(using: &random)!)])
        }
        send("screen_view", ["screen": "Home"])
        for _ in 0..<[0, 1, 1, 2, 2, 3, 4].randomElement(using: &random)! {
            send("screen_view", ["screen": "BillEditor"])
            let amount = (-log(Double.random(in: 0.01...1, using: &random)) * 35 * 2).rounded() / 2
            send(
                "bill_created",
                [
                    "amount": .double(max(0.5, amount)),
                    "note": .string(random.chance(0.35) ? "" : Self.notes.randomElement(using: &random)!),
                    "labels": .string(Self.labels.prefix(Int.random(in: 0...3, using: &random)).joined(separator: ",")),
                    "duration_s": .int(Int.random(in: 4...90, using: &random)),
                ])
        }
        for (screen, probability) in Self.screens where random.chance(probability) {
            send("screen_view", ["screen": .string(screen)])
        }
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            send("ad_shown", ["placement": .string(random.chance(0.7) ? "home_banner" : "interstitial")])
        }
        if random.chance(0.02) {
            send("rating_submitted", ["stars": .int([3, 4, 4, 5, 5, 5].randomElement(using: &random)!)])
        }
        if random.chance(0.03) { send("logout") }
    }

    private static func version(onDay day: Int, joined: Int, delays: [Int]) -> String {
        var current = releases[0].0
        for (index, (version, released)) in releases.enumerated() where released <= day {
            // New users install the latest release; others upgrade after their delay.
            if joined >= released || (delays[index] != .max && released + delays[index] <= day) { current = version }
        }
        return current
    }

    private static func sessionHours(_ count: Int, random: inout SplitMix64) -> [Int] {
        let hours = [8, 9, 12, 13, 18, 20, 21, 22]
        return Array(Set((0..<count).map { _ in hours.randomElement(using: &random)! })).sorted()
    }
}

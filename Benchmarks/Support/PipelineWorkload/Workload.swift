import Foundation
import SeededRandom
import TallyEvent
import TallyStore

// The synthetic app of the storage benchmarks, in two populations with about the same events
// a day (~176k), 12 event names with skewed weights, 25 screens, app versions rolling out
// over two months, a quarter of the users on Android. Each active user's first event of a day
// is an `identify` carrying the user property `plan` (free, pro or team; some free users move
// to pro during the two months). Deterministic: day `d` is generated from seed `d`.
//   - 20k users: 42% active a day, 1–2 sessions of 4–24 events each;
//   - 200k users: 20% active a day, 1 session of 2–7 events.

package enum Workload {
    static let names = ["screen_view", "tap", "open", "purchase", "search", "share", "like", "scroll", "error", "login", "logout", "add_to_cart"]
    static let cumulativeWeights = [40, 28, 6, 2, 5, 2, 6, 5, 1, 2, 1, 2].reduce(into: [Int]()) { $0.append(($0.last ?? 0) + $1) }
    static let screens = (0..<25).map { "screen_\($0)" }
    static let versions = ["1.0.0", "1.1.0", "1.2.0", "2.0.0", "2.1.0"]

    /// The plan of `user` on day `day`: 60% free, 30% pro, 10% team, and one free user in ten
    /// moves to pro on a day of its own within the first two months.
    static func plan(user: Int, day: Int) -> String {
        switch user % 10 {
        case 0..<5: "free"
        case 5: day >= user % 60 ? "pro" : "free"
        case 6..<9: "pro"
        default: "team"
        }
    }

    /// Who uses the app: how many users, how many of them a day, and how much.
    package struct Population: Hashable, Sendable {
        /// The users.
        package var users: Int
        /// The share of the users active on a day.
        var activeShare: Double
        /// Sessions per active user and day.
        var sessions: ClosedRange<Int>
        /// Events per session.
        var sessionEvents: ClosedRange<Int>

        /// 20,000 users, 42% of them active a day with 1–2 sessions of 4–24 events.
        package static let twentyThousand = Population(users: 20_000, activeShare: 0.42, sessions: 1...2, sessionEvents: 4...24)
        /// 200,000 users, 20% of them active a day with 1 session of 2–7 events.
        package static let twoHundredThousand = Population(users: 200_000, activeShare: 0.2, sessions: 1...1, sessionEvents: 2...7)
    }

    /// The events of day `day` after `start` (a UTC midnight) of `population`, shuffled across
    /// users as a server receives them.
    static func events(day: Int, from start: Date, of population: Population = .twentyThousand) -> [Event] {
        var random = SplitMix64(seed: UInt64(day) &+ 42)
        var events: [Event] = []
        for user in 0..<population.users where Double.random(in: 0..<1, using: &random) < population.activeShare {
            let version = versions[min(versions.count - 1, (user % 7 + day) / 14)]
            var first: Int?
            for _ in 0..<Int.random(in: population.sessions, using: &random) {
                var t = start.addingTimeInterval(Double(day) * 86_400 + Double.random(in: 0..<86_000, using: &random))
                for _ in 0..<Int.random(in: population.sessionEvents, using: &random) {
                    let pick = Int.random(in: 0..<cumulativeWeights.last!, using: &random)
                    let name = names[cumulativeWeights.firstIndex { pick < $0 }!]
                    let properties: [String: PropertyValue] =
                        name == "screen_view"
                        ? ["screen": .string(screens[Int.random(in: 0..<screens.count, using: &random)])]
                        : ["button": .string("b\(Int.random(in: 0..<9, using: &random))"), "value": .double(1.5)]
                    let event = Event(
                        id: id(at: t, &random), name: name, timestamp: t, deviceTimestamp: t.addingTimeInterval(-0.8),
                        userID: "user-\(user)", sessionID: "s-\(user)-\(day)", appVersion: version,
                        platform: user % 4 == 3 ? "Android" : "iOS", properties: properties)
                    if first.map({ event.timestamp < events[$0].timestamp }) ?? true { first = events.count }
                    events.append(event)
                    t.addTimeInterval(Double.random(in: 2...60, using: &random))
                }
            }
            if let first {
                events[first].name = "identify"
                events[first].properties = ["plan": .string(plan(user: user, day: day))]
            }
        }
        events.shuffle(using: &random)
        return events
    }

    /// An event id as the SDK makes it: a version-7 UUID, the event's millisecond followed by
    /// random bits from `random`.
    private static func id(at date: Date, _ random: inout SplitMix64) -> UUID {
        let milliseconds = UInt64((date.timeIntervalSince1970 * 1000).rounded())
        let high = milliseconds << 16 | 0x7000 | random.next() & 0x0FFF
        let low = random.next() & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000
        return withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { UUID(uuid: $0.load(as: uuid_t.self)) }
    }
}

import Foundation
import TallyEvent

@testable import TallyStore

/// Computes metrics by brute force over an in-memory list of events, straight from the
/// definitions, sharing no code with the store's rollups or bucket arithmetic.
struct MetricsOracle {
    /// Deduplicated events: the first occurrence of each id.
    let events: [Event]
    let calendar: Calendar
    /// Each user's first event ever, of every event, matching or not.
    let firstEvents: [String: Date]
    /// The local day of each event, as `YYYY-MM-DD`, by id.
    private var days: [UUID: String] = [:]

    /// The oracle of `events`, narrowed to those `matching` accepts (given every deduplicated
    /// event, for user properties).
    init(events: [Event], timeZone: String, matching: ([Event]) -> (Event) -> Bool = { _ in { _ in true } }) {
        var seen = Set<UUID>()
        let all = events.filter { seen.insert($0.id).inserted }
        firstEvents = Dictionary(grouping: all, by: \.userID).mapValues { $0.map(\.timestamp).min()! }
        self.events = all.filter(matching(all))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timeZone)!
        self.calendar = calendar
        for event in self.events { days[event.id] = day(of: event.timestamp) }
    }

    /// The local day of `event`, as `YYYY-MM-DD` (computed once, in `init`).
    func localDay(of event: Event) -> String {
        days[event.id]!
    }

    /// The local day of an instant, as `YYYY-MM-DD`.
    func day(of date: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    /// The day `offset` days from `date` (`YYYY-MM-DD`).
    func day(_ date: String, offset: Int) -> String {
        let parts = date.split(separator: "-").map { Int($0)! }
        let noon = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12))!
        return day(of: calendar.date(byAdding: .day, value: offset, to: noon)!)
    }

    func users(onDays days: Set<String>) -> Int {
        Set(events.filter { days.contains(self.days[$0.id]!) }.map(\.userID)).count
    }

    /// The distinct users with an event on the days `from` through `to`, and those of them
    /// whose first event ever is on one of those days.
    func rangeUsers(from: String, to: String) -> (users: Int, newUsers: Int) {
        let users = Set(events.filter { (from...to).contains(days[$0.id]!) }.map(\.userID))
        return (users.count, users.filter { (from...to).contains(day(of: firstEvents[$0]!)) }.count)
    }

    /// `screen_view` events per `screen` property on the days `from` through `to`.
    func screenViews(from: String, to: String) -> [String: Int] {
        let screens: [String] = events.compactMap { event in
            guard event.name == "screen_view", (from...to).contains(days[event.id]!), case .string(let screen)? = event.properties["screen"] else {
                return nil
            }
            return screen
        }
        return Dictionary(grouping: screens, by: { $0 }).mapValues(\.count)
    }

    /// The users active on the days `from` through `to` by the app version of their last event
    /// in them (ties by the greater version).
    func versionUsers(from: String, to: String) -> [String: Int] {
        let inRange = events.filter { (from...to).contains(days[$0.id]!) }
        let lastEvents = Dictionary(grouping: inRange, by: \.userID).mapValues { events in
            events.max { ($0.timestamp, $0.appVersion) < ($1.timestamp, $1.appVersion) }!
        }
        return Dictionary(grouping: lastEvents.values, by: \.appVersion).mapValues(\.count)
    }

    func metrics(date: String, timeZone: String) -> DayMetrics {
        let onDay = events.filter { days[$0.id] == date }
        let perUserCounts = Dictionary(grouping: onDay, by: \.name).mapValues { Dictionary(grouping: $0, by: \.userID).mapValues(\.count) }
        let lastEvents = Dictionary(grouping: onDay, by: \.userID).mapValues { events in
            events.max { ($0.timestamp, $0.appVersion) < ($1.timestamp, $1.appVersion) }!
        }
        let screens: [String] = onDay.compactMap { event in
            guard event.name == "screen_view", case .string(let screen)? = event.properties["screen"] else { return nil }
            return screen
        }
        return DayMetrics(
            date: date,
            timeZone: timeZone,
            dau: Set(onDay.map(\.userID)).count,
            wau: users(onDays: Set((-6...0).map { day(date, offset: $0) })),
            mau: users(onDays: Set((-29...0).map { day(date, offset: $0) })),
            newUsers: Set(onDay.map(\.userID)).filter { day(of: firstEvents[$0]!) == date }.count,
            events: Dictionary(grouping: onDay, by: \.name).mapValues(\.count),
            perUser: perUserCounts.mapValues { counts in
                PerUserStats(average: Double(counts.values.reduce(0, +)) / Double(counts.count), maximum: counts.values.max()!)
            },
            versions: Dictionary(grouping: lastEvents.values, by: \.appVersion).mapValues(\.count),
            screens: Dictionary(grouping: screens, by: { $0 }).mapValues(\.count))
    }
}

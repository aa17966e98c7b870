import Foundation

@testable import TallyStore

/// Retention by brute force, from its definition.
extension MetricsOracle {
    /// Users grouped by the period of their first event ever (if they have an event in it);
    /// for each later period of the matrix, how many of a group have an event in it.
    func retention(from: String, to: String, timeZone: String, period: RetentionPeriod) -> Retention {
        // The first day of each period, from Foundation's calendar rather than the store's;
        // remembered per day, as the calendar is slow.
        var starts: [String: String] = [:]
        func periodStart(_ date: String) -> String {
            guard period == .week else { return date }
            if let start = starts[date] { return start }
            let parts = date.split(separator: "-").map { Int($0)! }
            let noon = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12))!
            let weekday = calendar.component(.weekday, from: noon)  // 1 is Sunday, 2 Monday
            let start = day(date, offset: -((weekday + 5) % 7))
            starts[date] = start
            return start
        }
        let step = period == .week ? 7 : 1
        var periods = [periodStart(from)]
        while periods.last! < periodStart(to) { periods.append(day(periods.last!, offset: step)) }
        let index = Dictionary(uniqueKeysWithValues: periods.enumerated().map { ($1, $0) })

        let byUser = Dictionary(grouping: events, by: \.userID)
        var cohorts = periods.enumerated().map { ($1, 0, [Int](repeating: 0, count: periods.count - 1 - $0)) }
        for userEvents in byUser.values {
            let active = Set(userEvents.compactMap { index[periodStart(localDay(of: $0))] })
            guard let cohort = index[periodStart(day(of: firstEvents[userEvents[0].userID]!))], active.contains(cohort) else { continue }
            cohorts[cohort].1 += 1
            for later in active where later > cohort { cohorts[cohort].2[later - cohort - 1] += 1 }
        }
        return Retention(
            from: periods.first!, to: day(periods.last!, offset: step - 1), timeZone: timeZone,
            period: period, cohorts: cohorts.map { RetentionCohort(start: $0, size: $1, returning: $2) })
    }
}

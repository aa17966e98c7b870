import Foundation
@testable import TallyStore

/// Retention by brute force, from its definition.
extension MetricsOracle {
    /// Users grouped by the period of their first event ever; for each later period of the
    /// matrix, how many of a group have an event in it.
    func retention(from: String, to: String, timeZone: String, period: RetentionPeriod) -> Retention {
        // The first day of each period, from Foundation's calendar rather than the store's.
        func periodStart(_ date: String) -> String {
            guard period == .week else { return date }
            let parts = date.split(separator: "-").map { Int($0)! }
            let noon = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12))!
            let weekday = calendar.component(.weekday, from: noon)  // 1 is Sunday, 2 Monday
            return day(date, offset: -((weekday + 5) % 7))
        }
        let step = period == .week ? 7 : 1
        var starts = [periodStart(from)]
        while starts.last! < periodStart(to) { starts.append(day(starts.last!, offset: step)) }
        let index = Dictionary(uniqueKeysWithValues: starts.enumerated().map { ($1, $0) })

        let byUser = Dictionary(grouping: events, by: \.userID)
        var cohorts = starts.enumerated().map { ($1, 0, [Int](repeating: 0, count: starts.count - 1 - $0)) }
        for userEvents in byUser.values {
            let firstDay = day(of: userEvents.map(\.timestamp).min()!)
            guard let cohort = index[periodStart(firstDay)] else { continue }
            cohorts[cohort].1 += 1
            let active = Set(userEvents.compactMap { index[periodStart(day(of: $0.timestamp))] })
            for later in active where later > cohort { cohorts[cohort].2[later - cohort - 1] += 1 }
        }
        return Retention(
            from: starts.first!, to: day(starts.last!, offset: step - 1), timeZone: timeZone,
            period: period, cohorts: cohorts.map { RetentionCohort(start: $0, size: $1, returning: $2) })
    }
}

import TallyEvent

/// The length of a retention cohort and of the steps users return in.
public enum RetentionPeriod: String, Sendable, Hashable, Codable, CaseIterable {
    /// Local days.
    case day
    /// Local weeks, Monday through Sunday (ISO 8601).
    case week
}

extension RetentionPeriod {
    /// The first day of each period from the one holding `days.lowerBound` through the one
    /// holding `days.upperBound`, then the day after the last period.
    func boundaries(covering days: ClosedRange<CalendarDay>) -> [CalendarDay] {
        switch self {
        case .day:
            Array(days.lowerBound...days.upperBound.advanced(by: 1))
        case .week:
            Array(stride(from: days.lowerBound.monday, through: days.upperBound.monday.advanced(by: 7), by: 7))
        }
    }
}

import TallyEvent

/// The days the dashboard shows: 1970-01-01 through 9999-12-31, so that every sum stays in
/// range, as URLs name them.
extension CalendarDay {
    /// 1970-01-01 ... 9999-12-31.
    static let shown = CalendarDay(daysSince1970: 0)...CalendarDay(daysSince1970: 2_932_896)

    /// The day `text` names, or `nil` if it is not a real `YYYY-MM-DD` day of 1970–9999.
    init?(shown text: String) {
        guard let day = CalendarDay(text), Self.shown.contains(day) else { return nil }
        self = day
    }

    /// The day `count` days later (earlier if negative), kept within 1970–9999.
    func adding(_ count: Int) -> CalendarDay {
        let (sum, overflow) = daysSince1970.addingReportingOverflow(count)
        return CalendarDay(daysSince1970: overflow ? (count < 0 ? 0 : Self.shown.upperBound.daysSince1970) : sum).clamped(to: Self.shown)
    }

    /// The day as people read it: `23 Nov 2026`.
    var readable: String {
        let (year, month, day) = components
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(day) \(months[month - 1]) \(year)"
    }
}

extension Comparable {
    /// The value, or the nearest bound of `range`.
    fileprivate func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}

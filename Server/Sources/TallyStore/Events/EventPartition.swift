import TallyEvent

/// A month of raw events: one partition of PostgreSQL's `event` table, `event_yYYYYmMM`,
/// holding the UTC month's timestamps. Timestamps before 1970 or from year 10000 on go to
/// the default partition, `event_other`, which no month overlaps.
struct EventPartition: Hashable {
    /// The month's first day.
    let start: CalendarDay

    /// The month holding `milliseconds` since 1970, or `nil` outside 1970…9999.
    init?(containing milliseconds: Int64) {
        guard milliseconds >= 0, milliseconds < 253_402_300_800_000 else { return nil }
        start = CalendarDay(daysSince1970: Int(milliseconds / 86_400_000)).firstOfMonth
    }

    /// The table's name.
    var table: String {
        let (year, month, _) = start.components
        return "event_y\(year)m\(month < 10 ? "0" : "")\(month)"
    }

    /// The milliseconds the partition holds.
    var milliseconds: Range<Int64> {
        let end = start.advanced(by: 31).firstOfMonth
        return Int64(start.daysSince1970) * 86_400_000..<Int64(end.daysSince1970) * 86_400_000
    }
}

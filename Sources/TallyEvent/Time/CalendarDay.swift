public import Foundation

/// A calendar day of the proleptic Gregorian calendar, independent of any time zone: the day
/// an event counts for once its zone is known, the `YYYY-MM-DD` of URLs, the API and the store.
///
/// Held as the number of days since 1970-01-01, so day arithmetic is integer arithmetic; the
/// conversions are Howard Hinnant's `days_from_civil` and `civil_from_days`.
///
/// ```swift
/// let day = CalendarDay("2026-11-23")!  // nil for "2026-02-30"
/// day.advanced(by: 7).description       // "2026-11-30"
/// CalendarDay(Date(), in: TimeZone(identifier: "Asia/Shanghai")!)
/// ```
public struct CalendarDay: Hashable, Comparable, Strideable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01 (negative before it).
    public let daysSince1970: Int

    /// The day `daysSince1970` days after 1970-01-01.
    public init(daysSince1970: Int) { self.daysSince1970 = daysSince1970 }

    /// The day `day` of `month` (1…12) of `year`; `nil` if there is no such day.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), (1...Self.days(inMonth: month, of: year)).contains(day) else { return nil }
        self.init(validYear: year, month: month, day: day)
    }

    /// The day `text` names, exactly `YYYY-MM-DD`; `nil` for any other text or a day that does
    /// not exist.
    public init?(_ text: some StringProtocol) {
        let day = ASCIIReader.read(text) { text -> CalendarDay? in
            guard let year = text.number(digits: 4), text.take("-"), let month = text.number(digits: 2), text.take("-"),
                let day = text.number(digits: 2)
            else { return nil }
            return CalendarDay(year: year, month: month, day: day)
        }
        guard let day else { return nil }
        self = day
    }

    /// The day holding `date` in `timeZone`.
    public init(_ date: Date, in timeZone: TimeZone) {
        let seconds = date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))
        self.init(daysSince1970: Int((seconds / 86_400).rounded(.down)))
    }

    /// The first instant of this day in `timeZone`: its midnight, or where the zone skips
    /// midnight (a DST change at 00:00), the instant the day starts; `nil` for a day outside
    /// Foundation's calendar. The one place the start of a local day is worked out.
    public func start(in timeZone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return start(in: calendar)
    }

    /// ``start(in:)-(TimeZone)`` in `calendar`'s time zone, for a caller that keeps a Gregorian
    /// calendar rather than building one per day.
    public func start(in calendar: Calendar) -> Date? {
        let (year, month, day) = components
        // Noon exists in every zone on every day; midnight does not always.
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12)).map(calendar.startOfDay(for:))
    }

    private init(validYear year: Int, month: Int, day: Int) {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        daysSince1970 = era * 146_097 + dayOfEra - 719_468
    }

    /// The year, month (1…12) and day of the month (1…31).
    public var components: (year: Int, month: Int, day: Int) {
        let z = daysSince1970 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The Monday of the ISO 8601 week holding this day.
    public var monday: CalendarDay {
        // 1970-01-01 was a Thursday, 3 days after a Monday.
        let sinceMonday = (daysSince1970 + 3) % 7
        return advanced(by: -(sinceMonday < 0 ? sinceMonday + 7 : sinceMonday))
    }

    /// The first day of this day's month.
    public var firstOfMonth: CalendarDay { advanced(by: 1 - components.day) }

    /// `YYYY-MM-DD`.
    public var description: String {
        let (year, month, day) = components
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.daysSince1970 < rhs.daysSince1970 }

    /// Days from this day to `other`: positive when `other` is later.
    public func distance(to other: Self) -> Int { other.daysSince1970 - daysSince1970 }

    /// The day `count` days later (earlier if negative).
    public func advanced(by count: Int) -> Self { Self(daysSince1970: daysSince1970 + count) }

    /// The number of days of `month` (1…12) in `year`.
    static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

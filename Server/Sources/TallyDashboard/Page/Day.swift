public import Foundation

/// A calendar day, `YYYY-MM-DD`, as URLs and the store name days: the unit of the date
/// picker's arithmetic. Years 1970 through 9999 only, so every sum stays in range.
public struct Day: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01.
    let ordinal: Int
    /// `YYYY-MM-DD`, made once: pages use it for every number they show.
    public let description: String

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }()
    private static let range = 0...2_932_896  // 1970-01-01 ... 9999-12-31

    /// The day `text` names, or `nil` if it is not a real `YYYY-MM-DD` day of 1970–9999.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.utf8.allSatisfy { (48...57).contains($0) } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            let date = Self.calendar.date(from: DateComponents(year: year, month: month, day: day)),
            Self.calendar.dateComponents([.year, .month, .day], from: date) == DateComponents(year: year, month: month, day: day)
        else { return nil }
        self.init(ordinal: Int((date.timeIntervalSince1970 / 86_400).rounded(.down)))
        guard Self.range.contains(ordinal) else { return nil }
    }

    /// The day of `date` in `timeZone`.
    public init(_ date: Date, in timeZone: TimeZone) {
        var calendar = Self.calendar
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let midnight = Self.calendar.date(from: parts) ?? date
        self.init(ordinal: min(max(Int((midnight.timeIntervalSince1970 / 86_400).rounded(.down)), Self.range.lowerBound), Self.range.upperBound))
    }

    private init(ordinal: Int) {
        self.ordinal = ordinal
        let parts = Self.calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(ordinal) * 86_400))
        description = String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }

    public static func == (lhs: Day, rhs: Day) -> Bool { lhs.ordinal == rhs.ordinal }

    public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }

    /// The day `count` days later (earlier if negative), kept within 1970–9999.
    public func adding(_ count: Int) -> Day {
        let (sum, overflow) = ordinal.addingReportingOverflow(count)
        return Day(
            ordinal: overflow
                ? (count < 0 ? Self.range.lowerBound : Self.range.upperBound) : min(max(sum, Self.range.lowerBound), Self.range.upperBound))
    }

    /// Days from `self` to `other`: positive when `other` is later.
    public func distance(to other: Day) -> Int { other.ordinal - ordinal }

    /// The first day of this day's month.
    public var firstOfMonth: Day {
        let parts = components
        return Day(ordinal: ordinal - (parts.day ?? 1) + 1)
    }

    /// The day as people read it: `23 Nov 2026`.
    public var readable: String {
        let parts = components
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(parts.day ?? 1) \(months[((parts.month ?? 1) - 1) % 12]) \(parts.year ?? 1970)"
    }

    private var components: DateComponents {
        Self.calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(ordinal) * 86_400))
    }

    public static func < (lhs: Day, rhs: Day) -> Bool { lhs.ordinal < rhs.ordinal }
}

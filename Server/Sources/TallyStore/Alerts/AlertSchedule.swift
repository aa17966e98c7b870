public import Foundation
public import TallyEvent

/// When an app's rules are evaluated: at the start of every local hour of the app's time
/// zone, following DST (and zones half or a quarter of an hour off UTC).
///
/// The start of a local day (midnight, or the first instant of a day that skips it) is the
/// **end of day** evaluation of the day that just ended: every condition is checked on the
/// whole day. Every other hour is an **hourly** evaluation of the day in progress, whose
/// value so far is checked against `above` and `below` only: a day's first hours compared with
/// a whole day a week earlier would always look like a drop.
public struct AlertSchedule: Sendable {
    /// What one evaluation time evaluates.
    public struct Slot: Hashable, Sendable {
        /// The evaluation time.
        public var at: Date
        /// Whether it ends `day`, rather than looking at it in progress.
        public var endsDay: Bool
        /// The local day evaluated.
        public var day: CalendarDay
    }

    private let calendar: Calendar

    /// The schedule in `timeZone`.
    public init(timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// Every UTC offset in use is a multiple of 15 minutes: local hours start on this grid.
    private static let step: TimeInterval = 900

    /// The first evaluation time strictly after `date`.
    public func next(after date: Date) -> Date {
        var candidate = (date.timeIntervalSince1970 / Self.step).rounded(.down) * Self.step
        repeat {
            candidate += Self.step
        } while !isHourStart(Date(timeIntervalSince1970: candidate))
        return Date(timeIntervalSince1970: candidate)
    }

    /// The last evaluation time at or before `date`.
    public func latest(atOrBefore date: Date) -> Date {
        var candidate = (date.timeIntervalSince1970 / Self.step).rounded(.down) * Self.step
        while !isHourStart(Date(timeIntervalSince1970: candidate)) { candidate -= Self.step }
        return Date(timeIntervalSince1970: candidate)
    }

    /// What the evaluation at `date`, an evaluation time, evaluates.
    public func slot(at date: Date) -> Slot {
        let endsDay = calendar.startOfDay(for: date) == date
        let day = CalendarDay(endsDay ? date.addingTimeInterval(-1) : date, in: calendar.timeZone)
        return Slot(at: date, endsDay: endsDay, day: day)
    }

    private func isHourStart(_ date: Date) -> Bool {
        let components = calendar.dateComponents([.minute, .second], from: date)
        return components.minute == 0 && components.second == 0
    }
}

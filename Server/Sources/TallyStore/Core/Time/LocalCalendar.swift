import Foundation
import TallyEvent

/// Day boundaries in one time zone, computed with Foundation's `Calendar` so they follow
/// DST: a local day may last 23 or 25 hours (or another length when a zone changes offset).
struct LocalCalendar {
    /// The IANA identifier this calendar was created with.
    let identifier: String
    private let calendar: Calendar

    /// A Gregorian calendar in `timeZone`, named by ``Foundation/TimeZone/tallyIdentifier``.
    init(timeZone: TimeZone, identifier: String? = nil) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.identifier = identifier ?? timeZone.tallyIdentifier
        self.calendar = calendar
    }

    /// A Gregorian calendar in the zone named `identifier`, as an app's settings store it,
    /// and named so.
    ///
    /// - Throws: ``TallyStoreError/invalidTimeZone(_:)`` when Foundation knows no such zone.
    init(identifier: String) throws(TallyStoreError) {
        guard let timeZone = TimeZone(identifier: identifier) else { throw .invalidTimeZone(identifier) }
        self.init(timeZone: timeZone, identifier: identifier)
    }

    /// The 15-minute buckets covering the local days `days`, from the first instant of the
    /// first day up to, excluding, the first instant of the day after the last.
    ///
    /// - Throws: ``TallyStoreError/unsupportedDayBoundary(date:timeZone:)`` when a boundary is
    ///   not on the bucket grid.
    func buckets(of days: ClosedRange<CalendarDay>) throws(TallyStoreError) -> Range<Int64> {
        try bucket(startOf: days.lowerBound)..<bucket(startOf: days.upperBound.advanced(by: 1))
    }

    /// The bucket starting at the first instant of `day` in this zone.
    ///
    /// - Throws: ``TallyStoreError/unsupportedDayBoundary(date:timeZone:)`` when that instant is
    ///   not on the bucket grid.
    func bucket(startOf day: CalendarDay) throws(TallyStoreError) -> Int64 {
        let milliseconds = day.start(in: calendar).map { Int64($0.timeIntervalSince1970) * 1000 }
        guard let milliseconds, milliseconds % Bucket.milliseconds == 0 else {
            throw .unsupportedDayBoundary(date: day.description, timeZone: identifier)
        }
        return milliseconds / Bucket.milliseconds
    }
}

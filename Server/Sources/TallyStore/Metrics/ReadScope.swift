public import Foundation
public import TallyEvent

/// What a metric read covers: an app's local days in one time zone, narrowed to a segment.
///
/// Every read of ``MetricStore`` takes one, so the days, the zone and the segment are typed
/// once, where a request is parsed, and every metric reads them the same way.
///
/// ```swift
/// let first = CalendarDay("2026-11-01")!
/// let november = ReadScope(app: app, days: first...first.advanced(by: 29), timeZone: .gmt)
/// let figures = try await store.metrics.range(november)
/// let debugDay = try await store.metrics.day(ReadScope(app: app.debug, day: first))
/// ```
public struct ReadScope: Hashable, Sendable {
    /// The most days a scope spans: a year, leap day included.
    public static let maximumDays = 366

    /// The app: its ``AppID/production`` events, or those of its debug builds (``AppID/debug``).
    public var app: AppID
    /// The local days, the first and the last included; at most ``maximumDays``.
    public var days: ClosedRange<CalendarDay>
    /// The time zone whose days these are; `nil` means the app's.
    public var timeZone: TimeZone?
    /// The segment (see ``SegmentFilter``): with conditions, every figure counts only matching
    /// events, and users through them; empty counts every event.
    public var filter: SegmentFilter

    /// The scope of `days` of `app`'s events in `timeZone` (the app's when `nil`), narrowed to `filter`.
    public init(app: AppID, days: ClosedRange<CalendarDay>, timeZone: TimeZone? = nil, filter: SegmentFilter = SegmentFilter()) {
        self.app = app
        self.days = days
        self.timeZone = timeZone
        self.filter = filter
    }

    /// The scope of the one local day `day`.
    public init(app: AppID, day: CalendarDay, timeZone: TimeZone? = nil, filter: SegmentFilter = SegmentFilter()) {
        self.init(app: app, days: day...day, timeZone: timeZone, filter: filter)
    }

    /// The last day: the one a read of a single day (``MetricStore/day(_:)``) reports.
    public var day: CalendarDay { days.upperBound }

    /// This scope narrowed to its last day (``day``): what a read of one day covers.
    public var lastDay: ReadScope { ReadScope(app: app, day: day, timeZone: timeZone, filter: filter) }

    /// This scope, checked to span at most ``maximumDays`` days.
    ///
    /// - Throws: ``TallyStoreError/invalidRange(from:to:)``.
    func validated() throws(TallyStoreError) -> Self {
        guard days.lowerBound.distance(to: days.upperBound) < Self.maximumDays else {
            throw .invalidRange(from: days.lowerBound.description, to: days.upperBound.description)
        }
        return self
    }
}

extension TimeZone {
    /// The zone's IANA identifier as Tally writes it in answers and addresses: Foundation's,
    /// except that the zone Foundation makes of `UTC` and names `GMT` is `UTC`, as asked.
    public var tallyIdentifier: String { identifier == "GMT" ? "UTC" : identifier }
}

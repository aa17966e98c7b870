import Foundation
import TallyEvent
import TallyStore

extension ReadScope {
    /// The scope a read request names for `app`: the days of `from` and `to` (or the one day
    /// of `date` when `days` is `["date"]`), the zone of `tz` (the app's without one), and the
    /// segment of `filters`. The one place a request's days and zone stop being text.
    ///
    /// - Parameter days: The names of the parameters holding the first and the last day, or
    ///   the one day.
    /// - Throws: A 400 for a missing parameter, ``TallyStoreError/invalidDate(_:)``,
    ///   ``TallyStoreError/invalidTimeZone(_:)``, ``TallyStoreError/invalidRange(from:to:)``
    ///   for a last day before the first, or a filter that does not parse.
    init(_ query: QueryParameters, app: AppID, days names: [String] = ["from", "to"]) throws {
        let texts = try query.required(names)
        let days = try texts.map { text throws(TallyStoreError) in
            guard let day = CalendarDay(text) else { throw .invalidDate(text) }
            return day
        }
        guard let first = days.first, let last = days.last, first <= last else {
            throw TallyStoreError.invalidRange(from: texts[0], to: texts[texts.count - 1])
        }
        var timeZone: TimeZone?
        if let identifier = try query.get("tz") {
            guard let zone = TimeZone(identifier: identifier) else { throw TallyStoreError.invalidTimeZone(identifier) }
            timeZone = zone
        }
        self.init(app: app, days: first...last, timeZone: timeZone, filter: try MetricsController.filter(in: query))
    }
}

import Foundation

/// Metrics of one property over a day's raw events of one name, for the metrics a dashboard
/// configures (an average amount, how often a note is left empty, a breakdown by screen).
///
/// They read the day's `event` rows of the app and the property matched by its exact key. The
/// cost grows with the day's events of the app: 1.5 to 5 ms per call on SQLite, debug build,
/// for a demo-sized day (≈ 900 events, 240 users). Under a filter, the day's events are read
/// whole and the filter and the metric applied to them here (``matching(_:app:filter:)``).
extension EventStore {
    /// The count, mean and maximum of the numeric values of `property` over the events named
    /// `event` on a day; see ``NumericSummary``.
    ///
    /// - Parameters:
    ///   - app: The app.
    ///   - event: The event name.
    ///   - property: The property key, matched exactly.
    ///   - date: The day, as `YYYY-MM-DD`.
    ///   - timeZone: The IANA identifier whose day `date` names; `nil` means the app's time zone.
    ///   - filter: The segment to count (see ``SegmentFilter``); empty counts every event.
    /// - Throws: The errors of ``metrics(app:date:timeZone:filter:)``.
    public func propertyAverage(
        app: AppID, event: String, property: String, date: String, timeZone: String? = nil, filter: SegmentFilter = SegmentFilter()
    ) async throws -> NumericSummary {
        let (milliseconds, _) = try await day(date, app: app, timeZone: timeZone)
        var (count, sum, maximum): (Int, Double, Double?) = (0, 0, nil)
        if filter.isEmpty {
            (count, sum, maximum) = try await backend.numericProperty(app: app, event: event, property: property, in: milliseconds)
        } else {
            for event in try await events(named: event, app: app, in: milliseconds, filter: filter) {
                let number: Double
                switch event.properties[property] {
                case .int(let value)?: number = Double(value)
                case .double(let value)? where value.isFinite: number = value
                default: continue
                }
                (count, sum, maximum) = (count + 1, sum + number, max(maximum ?? number, number))
            }
        }
        return NumericSummary(count: count, average: count == 0 ? nil : sum / Double(count), maximum: maximum)
    }

    /// How many events named `event` on a day leave `property` empty; see ``EmptyShare``.
    ///
    /// - Parameters: As for ``propertyAverage(app:event:property:date:timeZone:filter:)``.
    /// - Throws: The errors of ``metrics(app:date:timeZone:filter:)``.
    public func emptyPropertyShare(
        app: AppID, event: String, property: String, date: String, timeZone: String? = nil, filter: SegmentFilter = SegmentFilter()
    ) async throws -> EmptyShare {
        let (milliseconds, _) = try await day(date, app: app, timeZone: timeZone)
        guard !filter.isEmpty else { return try await backend.emptyProperty(app: app, event: event, property: property, in: milliseconds) }
        let events = try await events(named: event, app: app, in: milliseconds, filter: filter)
        let empty = events.filter { event in
            switch event.properties[property] {
            case nil, .null?: true
            case .string(let text)?: text.unicodeScalars.allSatisfy(EmptyShare.whiteSpace.unicodeScalars.contains)
            default: false
            }
        }
        return EmptyShare(events: events.count, empty: empty.count)
    }

    /// The events named `event` on a day by the value of `property`, with the distinct users
    /// of each value; see ``Breakdown``.
    ///
    /// - Parameters:
    ///   - limit: How many values ``Breakdown/top`` lists at most, clamped to
    ///     1...``maximumBreakdownLimit``; the rest are summed in the `other` fields.
    ///   - Other parameters: As for ``propertyAverage(app:event:property:date:timeZone:filter:)``.
    /// - Throws: The errors of ``metrics(app:date:timeZone:filter:)``.
    public func breakdown(
        app: AppID, event: String, property: String, date: String, timeZone: String? = nil, limit: Int = 50,
        filter: SegmentFilter = SegmentFilter()
    ) async throws -> Breakdown {
        let limit = min(max(limit, 1), Self.maximumBreakdownLimit)
        let (milliseconds, _) = try await day(date, app: app, timeZone: timeZone)
        var missing = 0
        var values: [String: (events: Int, users: Set<String>)] = [:]
        let rows =
            filter.isEmpty
            ? try await backend.propertyValues(app: app, event: event, property: property, in: milliseconds)
            : try await events(named: event, app: app, in: milliseconds, filter: filter).map { ($0.properties[property]?.segmentText, $0.userID, 1) }
        for (value, user, events) in rows {
            guard let value else {
                missing += events
                continue
            }
            values[value, default: (0, [])].events += events
            values[value, default: (0, [])].users.insert(user)
        }
        let sorted = values.sorted { ($1.value.events, $0.key) < ($0.value.events, $1.key) }
        let others = sorted.dropFirst(limit)
        return Breakdown(
            top: sorted.prefix(limit).map { Breakdown.Entry(value: $0.key, events: $0.value.events, users: $0.value.users.count) },
            otherValues: others.count,
            otherEvents: others.reduce(0) { $0 + $1.value.events },
            otherUsers: others.reduce(into: Set<String>()) { $0.formUnion($1.value.users) }.count,
            missing: missing,
            rawEventsKeptSince: try await rawEventsKeptSince(app: app, from: milliseconds.lowerBound))
    }

    /// The first instant of `app`'s kept raw events if it is after `start` (milliseconds since
    /// 1970), else `nil`.
    func rawEventsKeptSince(app: AppID, from start: Int64) async throws -> Date? {
        guard let keptSince = try await backend.app(id: app)?.rawEventsKeptSince, keptSince.unixMilliseconds > start else { return nil }
        return keptSince
    }

    /// The most values ``breakdown(app:event:property:date:timeZone:limit:filter:)`` lists.
    public static let maximumBreakdownLimit = 1_000
}

import Foundation

/// Metrics of one property over a day's raw events of one name, for the metrics a dashboard
/// configures (an average amount, how often a note is left empty, a breakdown by screen).
///
/// They read the scope's `event` rows of the app and the property matched by its exact key. The
/// cost grows with those events: 1.5 to 5 ms per call on SQLite, debug build, for a
/// demo-sized day (≈ 900 events, 240 users). Under a filter, the events are read whole and
/// the filter and the metric applied to them here.
extension MetricStore {
    /// The count, mean and maximum of the numeric values of `property` (its key, matched
    /// exactly) over the events named `event` on the scope's days; see ``NumericSummary``.
    public func average(of property: String, event: String, in scope: ReadScope) async throws -> NumericSummary {
        let (milliseconds, _) = try await milliseconds(of: scope)
        var (count, sum, maximum): (Int, Double, Double?) = (0, 0, nil)
        if scope.filter.isEmpty {
            (count, sum, maximum) = try await backend.numericProperty(app: scope.app, event: event, property: property, in: milliseconds)
        } else {
            for event in try await store.events(named: event, app: scope.app, in: milliseconds, filter: scope.filter) {
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

    /// How many events named `event` on the scope's days leave `property` empty; see ``EmptyShare``.
    public func emptyShare(of property: String, event: String, in scope: ReadScope) async throws -> EmptyShare {
        let (milliseconds, _) = try await milliseconds(of: scope)
        guard !scope.filter.isEmpty else {
            return try await backend.emptyProperty(app: scope.app, event: event, property: property, in: milliseconds)
        }
        let events = try await store.events(named: event, app: scope.app, in: milliseconds, filter: scope.filter)
        let empty = events.filter { event in
            switch event.properties[property] {
            case nil, .null?: true
            case .string(let text)?: text.unicodeScalars.allSatisfy(EmptyShare.whiteSpace.unicodeScalars.contains)
            default: false
            }
        }
        return EmptyShare(events: events.count, empty: empty.count)
    }

    /// The events named `event` on the scope's days by the value of `property`, with the
    /// distinct users of each value; see ``Breakdown``.
    ///
    /// - Parameter limit: How many values ``Breakdown/top`` lists at most, clamped to
    ///   1...``Breakdown/maximumLimit``; the rest are summed in the `other` fields.
    public func breakdown(event: String, by property: String, limit: Int = 50, in scope: ReadScope) async throws -> Breakdown {
        let limit = min(max(limit, 1), Breakdown.maximumLimit)
        let (app, filter) = (scope.app, scope.filter)
        let (milliseconds, _) = try await milliseconds(of: scope)
        var missing = 0
        var values: [String: (events: Int, users: Set<String>)] = [:]
        let rows =
            filter.isEmpty
            ? try await backend.propertyValues(app: app, event: event, property: property, in: milliseconds)
            : try await store.events(named: event, app: app, in: milliseconds, filter: filter).map {
                ($0.properties[property]?.segmentText, $0.userID, 1)
            }
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
}

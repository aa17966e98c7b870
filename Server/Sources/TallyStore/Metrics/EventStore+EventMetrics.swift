import TallyEvent

extension EventStore {
    /// The distinct users who sent an event named `event` on a day.
    ///
    /// Reads the `bucket_activity` rollup, not raw events, like ``metrics(app:date:timeZone:filter:)``.
    ///
    /// - Parameters:
    ///   - app: The app.
    ///   - event: The event name.
    ///   - date: The day, as `YYYY-MM-DD`.
    ///   - timeZone: The IANA identifier whose day `date` names; `nil` means the app's time zone.
    ///   - filter: The segment to count (see ``SegmentFilter``); empty counts every event.
    /// - Throws: The errors of ``metrics(app:date:timeZone:filter:)``.
    public func distinctUsers(
        app: AppID, event: String, date: String, timeZone: String? = nil, filter: SegmentFilter = SegmentFilter()
    ) async throws -> Int {
        try await dailyCounts(app: app, event: event, from: date, to: date, timeZone: timeZone, filter: filter)[0].users
    }

    /// Per day from `from` through `to`, the events named `event` and the distinct users who
    /// sent them: the series of a metric's detail chart.
    ///
    /// Days are defined as in ``DayMetrics``. Reads the `bucket_activity` rollup once for the whole
    /// range: the cost grows with the users active in it, not with their events.
    ///
    /// - Parameters:
    ///   - app: The app.
    ///   - event: The event name.
    ///   - from: The first day, as `YYYY-MM-DD`.
    ///   - to: The last day, included, as `YYYY-MM-DD`; the range spans at most ``maximumRangeDays`` days.
    ///   - timeZone: The IANA identifier whose days these are; `nil` means the app's time zone.
    ///   - filter: The segment to count (see ``SegmentFilter``); empty counts every event.
    /// - Returns: One element per day, in order.
    /// - Throws: The errors of ``metricsRange(app:from:to:timeZone:filter:)``.
    public func dailyCounts(
        app: AppID, event: String, from: String, to: String, timeZone: String? = nil, filter: SegmentFilter = SegmentFilter()
    ) async throws -> [DailyCount] {
        let days = try Self.days(from: from, to: to)
        return try await read(app: app, timeZone: timeZone, filter: filter) { calendar in
            RollupNeeds(
                activity: try calendar.bucket(startOf: days.lowerBound)..<calendar.bucket(startOf: days.upperBound.advanced(by: 1)),
                labelTexts: [event])
        } body: { reader, calendar in
            let starts = try (days.lowerBound...days.upperBound.advanced(by: 1)).map(calendar.bucket(startOf:))
            var counts = days.map { DailyCount(date: $0.description, events: 0, users: 0) }
            guard let name = try reader.labelID(event) else { return counts }
            var dayIndex = 0
            var users: Set<Int64> = []
            try reader.forEachUserCount(of: name, in: starts.first!..<starts.last!) { bucket, user, count in
                while bucket >= starts[dayIndex + 1] {
                    counts[dayIndex].users = users.count
                    users.removeAll(keepingCapacity: true)
                    dayIndex += 1
                }
                counts[dayIndex].events += count
                users.insert(user)
            }
            counts[dayIndex].users = users.count
            return counts
        }
    }
}

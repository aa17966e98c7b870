import TallyEvent

extension MetricStore {
    /// The distinct users who sent an event named `event` on the scope's days.
    ///
    /// Reads the `bucket_activity` rollup, not raw events, like ``day(_:)``.
    public func distinctUsers(of event: String, in scope: ReadScope) async throws -> Int {
        try await read(scope) { calendar in
            RollupNeeds(activity: try calendar.buckets(of: scope.days), labelTexts: [event])
        } body: { reader, calendar in
            guard let name = try reader.labelID(event) else { return 0 }
            var users: Set<Int64> = []
            try reader.forEachUserCount(of: name, in: try calendar.buckets(of: scope.days)) { _, user, _ in users.insert(user) }
            return users.count
        }
    }

    /// Per day of the scope, the events named `event` and the distinct users who sent them:
    /// the series of a metric's detail chart.
    ///
    /// Days are defined as in ``DayMetrics``. Reads the `bucket_activity` rollup once for the whole
    /// range: the cost grows with the users active in it, not with their events.
    ///
    /// - Returns: One element per day, in order.
    public func dailyCounts(of event: String, in scope: ReadScope) async throws -> [DailyCount] {
        let days = scope.days
        return try await read(scope) { calendar in
            RollupNeeds(activity: try calendar.buckets(of: days), labelTexts: [event])
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

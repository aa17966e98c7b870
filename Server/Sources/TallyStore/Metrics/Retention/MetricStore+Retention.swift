import TallyEvent

extension MetricStore {
    /// The retention matrix of the periods (days, or weeks from Monday) from the one holding
    /// the scope's first day through the one holding its last.
    ///
    /// A user belongs to the cohort of the period that holds their first event ever, and
    /// returns in a later period when they have an event in it; both in the scope's local
    /// time. Under a filter, a cohort holds the users first seen in a period who sent a
    /// matching event in it, and they return with a matching event. Exact: computed from the
    /// rollups, as ``DayMetrics`` are.
    ///
    /// ```swift
    /// let matrix = try await store.metrics.retention(ReadScope(app: app, days: CalendarDay("2026-11-01")!...CalendarDay("2026-11-30")!))
    /// matrix.cohorts[0].shares?[0]  // the share of Nov 1's new users back on Nov 2
    /// ```
    public func retention(_ scope: ReadScope, period: RetentionPeriod = .day) async throws -> Retention {
        let boundaries = period.boundaries(covering: try scope.validated().days)
        return try await read(scope) { calendar in
            let starts = try boundaries.map(calendar.bucket(startOf:))
            return RollupNeeds(userWindows: zip(starts, starts.dropFirst()).map { $0..<$1 })
        } body: { reader, calendar in
            let cohorts = try reader.retention(between: boundaries.map(calendar.bucket(startOf:)))
            return Retention(
                from: boundaries.first!.description, to: boundaries.last!.advanced(by: -1).description, timeZone: calendar.identifier,
                period: period,
                cohorts: zip(boundaries, cohorts).map { RetentionCohort(start: $0.description, size: $1.size, returning: $1.returning) })
        }
    }

    /// Of the users first seen each of `days` days before the scope's last day
    /// (``ReadScope/day``), how many have an event on it: single cells of the
    /// ``retention(_:period:)`` matrix, read from the one day's activity instead of the whole
    /// range's.
    ///
    /// ```swift
    /// let back = try await store.metrics.returningUsers(after: [1, 7, 30], in: ReadScope(app: app, day: CalendarDay("2026-11-20")!))
    /// ```
    ///
    /// - Parameter days: How many days before the day of return each group was first seen;
    ///   each from 1 to ``ReadScope/maximumDays``.
    /// - Throws: ``TallyStoreError/invalidRange(from:to:)`` for a number of days out of range.
    public func returningUsers(after days: [Int], in scope: ReadScope) async throws -> [ReturningUsers] {
        let day = scope.day
        for back in days where !(1...ReadScope.maximumDays).contains(back) {
            throw TallyStoreError.invalidRange(from: "\(back) days before \(day)", to: day.description)
        }
        @Sendable func cohorts(_ calendar: LocalCalendar) throws -> [Range<Int64>] {
            try days.map { back in try calendar.buckets(of: day.advanced(by: -back)...day.advanced(by: -back)) }
        }
        return try await read(scope.lastDay) { calendar in
            RollupNeeds(userWindows: try cohorts(calendar) + [calendar.buckets(of: day...day)])
        } body: { reader, calendar in
            let counts = try reader.returning(to: calendar.buckets(of: day...day), from: cohorts(calendar))
            return zip(days, counts).map { ReturningUsers(days: $0, firstSeen: $1.firstSeen, returned: $1.returned) }
        }
    }
}

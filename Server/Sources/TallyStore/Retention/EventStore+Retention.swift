import TallyEvent

extension EventStore {
    /// The retention matrix of the periods (days or weeks) from the one holding `from`
    /// through the one holding `to`.
    ///
    /// A user belongs to the cohort of the period that holds their first event ever, and
    /// returns in a later period when they have an event in it; both in the local time of
    /// `timeZone`. Exact: computed from the rollups, as ``DayMetrics`` are.
    ///
    /// ```swift
    /// let matrix = try await store.retention(app: app, from: "2026-11-01", to: "2026-11-30")
    /// matrix.cohorts[0].shares?[0]  // the share of Nov 1's new users back on Nov 2
    /// ```
    ///
    /// - Parameters:
    ///   - app: The app.
    ///   - from: A day of the first period, as `YYYY-MM-DD`.
    ///   - to: A day of the last period, as `YYYY-MM-DD`; `from` through `to` spans at most
    ///     ``maximumRangeDays`` days.
    ///   - timeZone: The IANA identifier whose days these are; `nil` means the app's time zone.
    ///   - period: Days, or weeks from Monday.
    ///   - filter: The segment (see ``SegmentFilter``): a cohort holds the users first seen in a
    ///     period who sent a matching event in it, and they return with a matching event.
    /// - Throws: The errors of ``metricsRange(app:from:to:timeZone:filter:)``.
    public func retention(
        app: AppID, from: String, to: String, timeZone: String? = nil, period: RetentionPeriod = .day,
        filter: SegmentFilter = SegmentFilter()
    ) async throws -> Retention {
        let boundaries = period.boundaries(covering: try Self.days(from: from, to: to))
        return try await read(app: app, timeZone: timeZone, filter: filter) { calendar in
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

    /// Of the users first seen each of `days` days before `date`, how many have an event on
    /// `date`: single cells of the ``retention(app:from:to:timeZone:period:filter:)`` matrix,
    /// read from the one day's activity instead of the whole range's.
    ///
    /// ```swift
    /// let back = try await store.returningUsers(app: app, date: "2026-11-20", after: [1, 7, 30])
    /// ```
    ///
    /// - Parameters:
    ///   - app: The app.
    ///   - date: The day of return, as `YYYY-MM-DD`.
    ///   - days: How many days before `date` each group was first seen; each from 1 to
    ///     ``maximumRangeDays``.
    ///   - timeZone: The IANA identifier whose days these are; `nil` means the app's time zone.
    ///   - filter: The segment, as in ``retention(app:from:to:timeZone:period:filter:)``.
    /// - Throws: The errors of ``metrics(app:date:timeZone:filter:)``, and
    ///   ``TallyStoreError/invalidRange(from:to:)`` for a number of days out of range.
    public func returningUsers(
        app: AppID, date: String, after days: [Int], timeZone: String? = nil, filter: SegmentFilter = SegmentFilter()
    ) async throws -> [ReturningUsers] {
        let day = try CalendarDay(validating: date)
        for back in days where !(1...Self.maximumRangeDays).contains(back) {
            throw TallyStoreError.invalidRange(from: "\(back) days before \(date)", to: date)
        }
        @Sendable func cohorts(_ calendar: LocalCalendar) throws -> [Range<Int64>] {
            try days.map { back in try calendar.buckets(of: day.advanced(by: -back)...day.advanced(by: -back)) }
        }
        return try await read(app: app, timeZone: timeZone, filter: filter) { calendar in
            RollupNeeds(userWindows: try cohorts(calendar) + [calendar.buckets(of: day...day)])
        } body: { reader, calendar in
            let counts = try reader.returning(to: calendar.buckets(of: day...day), from: cohorts(calendar))
            return zip(days, counts).map { ReturningUsers(days: $0, firstSeen: $1.firstSeen, returned: $1.returned) }
        }
    }
}

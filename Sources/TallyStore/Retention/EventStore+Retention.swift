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
    /// - Throws: The errors of ``metricsRange(app:from:to:timeZone:)``.
    public func retention(
        app: AppID, from: String, to: String, timeZone: String? = nil, period: RetentionPeriod = .day
    ) async throws -> Retention {
        let boundaries = period.boundaries(covering: try Self.days(from: from, to: to))
        return try await read(app: app, timeZone: timeZone) { reader, calendar in
            let cohorts = try reader.retention(between: boundaries.map(calendar.bucket(startOf:)))
            return Retention(
                from: boundaries.first!.text, to: boundaries.last!.advanced(by: -1).text, timeZone: calendar.identifier,
                period: period,
                cohorts: zip(boundaries, cohorts).map { RetentionCohort(start: $0.text, size: $1.size, returning: $1.returning) })
        }
    }
}

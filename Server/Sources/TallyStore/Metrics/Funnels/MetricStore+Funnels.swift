extension MetricStore {
    /// How many users went through `steps` in order: see ``Funnel`` for the exact definition.
    ///
    /// Reads only what the engine stores, never raw events: the ``BucketLog``s of the range's
    /// UTC days and of the window after it, as the ``DayLog``s of the steps' names, then counts
    /// each user's chains step by step (see ``FunnelCounter``).
    ///
    /// ```swift
    /// let november = ReadScope(app: app, days: CalendarDay("2026-11-01")!...CalendarDay("2026-11-30")!)
    /// let funnel = try await store.metrics.funnel(["app_open", "bill_created"], in: november)
    /// funnel.steps[1].users  // users who created a bill within a day of opening the app
    /// ```
    ///
    /// - Parameters:
    ///   - steps: 2 to ``Funnel/maximumSteps`` steps (``FunnelStep/problem(with:)``).
    ///   - window: How long a chain may take from its first event, in seconds: 1 to ``Funnel/maximumWindow``.
    ///   - breakdown: `app_version`, `platform` or a segment property to break the funnel down by.
    ///   - scope: The days a chain may start on; under a filter, only matching events count, at
    ///     every step.
    /// - Throws: ``TallyStoreError/invalidFunnel(_:)``, and ``TallyStoreError/unknownFilterProperty(_:)``
    ///   for a step condition or breakdown on an unknown property.
    public func funnel(
        _ steps: [FunnelStep], window: Int = Funnel.defaultWindow, breakdown: String? = nil, in scope: ReadScope
    ) async throws -> Funnel {
        if let problem = FunnelStep.problem(with: steps) { throw TallyStoreError.invalidFunnel(problem) }
        guard (1...Funnel.maximumWindow).contains(window) else {
            throw TallyStoreError.invalidFunnel("expected a window of 1 to \(Funnel.maximumWindow) seconds, not \(window)")
        }
        let (app, days) = (scope.app, scope.days)
        let windowMilliseconds = Int64(window) * 1_000
        /// The first-step times that start a chain, and the UTC days of the day logs read: from
        /// the first start to the window after the last.
        @Sendable func scanned(_ calendar: LocalCalendar) throws -> (starts: Range<Int64>, days: Range<Int64>) {
            let buckets = try calendar.buckets(of: days)
            let starts = buckets.lowerBound * Bucket.milliseconds..<buckets.upperBound * Bucket.milliseconds
            let last = Bucket.containing(milliseconds: starts.upperBound - 1 + windowMilliseconds)
            return (starts, Bucket.day(of: buckets.lowerBound)..<Bucket.day(of: last) + 1)
        }
        return try await read(scope) { calendar in
            // The texts the matcher looks up: names, and the screens of `screen` conditions.
            let screens = steps.flatMap { $0.conditions.conditions.filter { $0.property == "screen" }.flatMap(\.values) }
            var needs = RollupNeeds(labelTexts: steps.map(\.event) + screens + (breakdown.map { [$0] } ?? []))
            let scannedDays = try scanned(calendar).days
            needs.logs = [scannedDays.lowerBound * Bucket.perDay..<scannedDays.upperBound * Bucket.perDay]
            needs.segmentKeys = true
            return needs
        } body: { reader, calendar in
            let (starts, scannedDays) = try scanned(calendar)
            let matcher = try FunnelMatcher(steps: steps, breakdown: breakdown, reader: reader)
            // The revisions of the bucket logs by UTC day: the day logs of the steps' names are
            // made from them unless kept.
            let revisions = BucketLogCache.days(
                of: try reader.rows.logRevisions(in: scannedDays.lowerBound * Bucket.perDay..<scannedDays.upperBound * Bucket.perDay))
            let names = matcher.names
            let dayLogs = try reader.rows.logCache.dayLogs(app: app, names: names, days: revisions) { day in
                try reader.rows.logs(in: day * Bucket.perDay..<(day + 1) * Bucket.perDay)
            }
            let logs = FunnelCounter.Logs(
                dayLogs, days: revisions.map(\.day), names: names, steps: matcher.steps(named:), segment: reader.segment)
            let users = try reader.rows.userCount()
            func counts(values: Int, breakdown: Bool) -> FunnelCounter.Counts {
                FunnelCounter(
                    steps: steps.count, stepNames: matcher.stepNames.map { $0.flatMap(names.firstIndex(of:)) }, window: windowMilliseconds,
                    starts: starts, values: values
                )
                .count(logs, users: users, matcher: matcher, segment: reader.segment, breakdown: breakdown)
            }
            func funnelSteps(_ counts: [(users: Int, medianMilliseconds: Double?)]) -> [Funnel.Step] {
                zip(steps, counts).map {
                    Funnel.Step(event: $0.description, users: $1.users, medianSeconds: $1.medianMilliseconds.map { $0 / 1_000 })
                }
            }
            var funnel = Funnel(
                from: days.lowerBound.description, to: days.upperBound.description, timeZone: calendar.identifier, window: window,
                steps: funnelSteps(counts(values: 1, breakdown: false)[0]))
            if let breakdown {
                // Every user of a step is in the segments of their first steps' values: the
                // funnel's own steps add them up once, from the count without values.
                funnel.breakdownProperty = breakdown
                funnel.breakdown = zip(matcher.values, counts(values: max(matcher.values.count, 1), breakdown: true))
                    .map { Funnel.Segment(value: $0, steps: funnelSteps($1)) }
                    .filter { $0.steps[0].users > 0 }
                    .sorted { ($0.steps[0].users, $1.value ?? "") > ($1.steps[0].users, $0.value ?? "") }
                    .prefix(Funnel.maximumBreakdownValues).map { $0 }
            }
            return funnel
        }
    }
}

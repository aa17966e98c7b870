extension EventStore {
    /// The most steps a funnel has.
    public static let maximumFunnelSteps = 10
    /// The longest funnel window: 90 days, in seconds.
    public static let maximumFunnelWindow = 90 * 86_400
    /// The most values a funnel's breakdown lists.
    public static let maximumBreakdownValues = 100

    /// How many users went through `steps` in order: see ``Funnel`` for the exact definition.
    ///
    /// Reads only what the engine stores (the ``BucketLog`` of the range and the window after
    /// it), never raw events, then counts each user's events in one pass (see ``FunnelCounter``).
    ///
    /// ```swift
    /// let funnel = try await store.funnel(app: app, steps: ["app_open", "bill_created"], from: "2026-11-01", to: "2026-11-30")
    /// funnel.steps[1].users  // users who created a bill within a day of opening the app
    /// ```
    ///
    /// - Parameters:
    ///   - app: The app.
    ///   - steps: 2 to ``maximumFunnelSteps`` steps.
    ///   - from: The first day a chain may start on, as `YYYY-MM-DD`.
    ///   - to: The last day a chain may start on, included; at most ``maximumRangeDays`` days after `from`.
    ///   - window: How long a chain may take from its first event, in seconds: 1 to ``maximumFunnelWindow``.
    ///   - timeZone: The IANA identifier whose days these are; `nil` means the app's time zone.
    ///   - filter: The segment: only matching events count, at every step.
    ///   - breakdown: `app_version`, `platform` or a segment property to break the funnel down by.
    /// - Throws: ``TallyStoreError/invalidFunnel(_:)``, ``TallyStoreError/unknownFilterProperty(_:)``
    ///   for a step condition, filter or breakdown on an unknown property, and the errors of
    ///   ``metricsRange(app:from:to:timeZone:filter:)``.
    public func funnel(
        app: AppID, steps: [FunnelStep], from: String, to: String, window: Int = 86_400, timeZone: String? = nil,
        filter: SegmentFilter = SegmentFilter(), breakdown: String? = nil
    ) async throws -> Funnel {
        guard (2...Self.maximumFunnelSteps).contains(steps.count) else {
            throw TallyStoreError.invalidFunnel("expected 2 to \(Self.maximumFunnelSteps) steps, not \(steps.count)")
        }
        guard (1...Self.maximumFunnelWindow).contains(window) else {
            throw TallyStoreError.invalidFunnel("expected a window of 1 to \(Self.maximumFunnelWindow) seconds, not \(window)")
        }
        let days = try Self.days(from: from, to: to)
        let windowMilliseconds = Int64(window) * 1_000
        @Sendable func scanned(_ calendar: LocalCalendar) throws -> (starts: Range<Int64>, buckets: Range<Int64>) {
            let buckets = try calendar.buckets(of: days)
            let starts = buckets.lowerBound * Bucket.milliseconds..<buckets.upperBound * Bucket.milliseconds
            return (starts, buckets.lowerBound..<Bucket.containing(milliseconds: starts.upperBound - 1 + windowMilliseconds) + 1)
        }
        return try await read(app: app, timeZone: timeZone, filter: filter) { calendar in
            // The texts the matcher looks up: names, and the screens of `screen` conditions.
            let screens = steps.flatMap { $0.conditions.conditions.filter { $0.property == "screen" }.flatMap(\.values) }
            var needs = RollupNeeds(labelTexts: steps.map(\.event) + screens + (breakdown.map { [$0] } ?? []))
            needs.logs = [try scanned(calendar).buckets]
            needs.segmentKeys = true
            return needs
        } body: { reader, calendar in
            let (starts, buckets) = try scanned(calendar)
            let matcher = try FunnelMatcher(steps: steps, breakdown: breakdown, reader: reader)
            let logs = FunnelCounter.Logs(
                try reader.logs(in: buckets).map { ($0.bucket * Bucket.milliseconds, $0.log, $0.keyMatches) }, steps: matcher.steps(named:))
            let users = try reader.rows.userCount()
            func counts(values: Int, breakdown: Bool) throws -> FunnelCounter.Counts {
                try FunnelCounter(steps: steps.count, window: windowMilliseconds, starts: starts, values: values)
                    .count(logs, users: users, matcher: matcher, segment: reader.segment, breakdown: breakdown)
            }
            func funnelSteps(_ counts: [(users: Int, medianMilliseconds: Double?)]) -> [Funnel.Step] {
                zip(steps, counts).map {
                    Funnel.Step(event: $0.description, users: $1.users, medianSeconds: $1.medianMilliseconds.map { $0 / 1_000 })
                }
            }
            var funnel = Funnel(
                from: days.lowerBound.description, to: days.upperBound.description, timeZone: calendar.identifier, window: window,
                steps: funnelSteps(try counts(values: 1, breakdown: false)[0]))
            if let breakdown {
                // Every user of a step is in the segments of their first steps' values: the
                // funnel's own steps add them up once, from the count without values.
                funnel.breakdownProperty = breakdown
                funnel.breakdown = zip(matcher.values, try counts(values: max(matcher.values.count, 1), breakdown: true))
                    .map { Funnel.Segment(value: $0, steps: funnelSteps($1)) }
                    .filter { $0.steps[0].users > 0 }
                    .sorted { ($0.steps[0].users, $1.value ?? "") > ($1.steps[0].users, $0.value ?? "") }
                    .prefix(Self.maximumBreakdownValues).map { $0 }
            }
            return funnel
        }
    }
}

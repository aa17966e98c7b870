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
            var counter = FunnelCounter(steps: steps.count, window: windowMilliseconds, starts: starts, values: max(matcher.values.count, 1))
            try Self.count(into: &counter, buckets: buckets, reader: reader, matcher: matcher, breakdown: breakdown != nil)
            let counts = counter.result()
            func funnelSteps(_ counts: [(users: Int, medianMilliseconds: Double?)]) -> [Funnel.Step] {
                zip(steps, counts).map {
                    Funnel.Step(event: $0.description, users: $1.users, medianSeconds: $1.medianMilliseconds.map { $0 / 1_000 })
                }
            }
            var funnel = Funnel(
                from: days.lowerBound.description, to: days.upperBound.description, timeZone: calendar.identifier, window: window,
                steps: funnelSteps(counts[0]))
            if let breakdown {
                // Every user of a step is in the segments of their first steps' values: the
                // funnel's own steps add them up once, from the same counter without values.
                var total = FunnelCounter(steps: steps.count, window: windowMilliseconds, starts: starts, values: 1)
                try Self.count(into: &total, buckets: buckets, reader: reader, matcher: matcher, breakdown: false)
                funnel.steps = funnelSteps(total.result()[0])
                funnel.breakdownProperty = breakdown
                funnel.breakdown = zip(matcher.values, counts)
                    .map { Funnel.Segment(value: $0, steps: funnelSteps($1)) }
                    .filter { $0.steps[0].users > 0 }
                    .sorted { ($0.steps[0].users, $1.value ?? "") > ($1.steps[0].users, $0.value ?? "") }
                    .prefix(Self.maximumBreakdownValues).map { $0 }
            }
            return funnel
        }
    }

    /// Adds to `counter` every event of `buckets` that matches a step, in time order per user,
    /// with its breakdown value when `breakdown`.
    ///
    /// Reads only the steps' names' sections of the logs, and reads an event whole only for a
    /// step with conditions beside its name, or a first step under a breakdown.
    private static func count(
        into counter: inout FunnelCounter, buckets: Range<Int64>, reader: RollupReader, matcher: FunnelMatcher, breakdown: Bool
    ) throws {
        let conditional = matcher.conditionalSteps
        try reader.forEachLog(in: buckets) { bucket, log, keyMatches in
            let start = bucket * Bucket.milliseconds
            for section in log.sections {
                let named = matcher.steps(named: section.name)
                guard named != 0 else { continue }
                try log.forEachRun(of: section) { user, events in
                    guard reader.segment?.allows(user: user) ?? true else { return }
                    for index in events where keyMatches[log.keyIndex(at: index)] {
                        var mask = named
                        var value: Int32 = 0
                        if mask & conditional != 0 || breakdown && mask & 1 != 0 {
                            let entry = BucketLog.Entry(
                                user: user, offset: log.offset(at: index), name: section.name, key: log.keys[log.keyIndex(at: index)],
                                screen: log.screens[log.screenIndex(at: index)])
                            mask = matcher.steps(of: entry)
                            if breakdown, mask & 1 != 0 { value = matcher.value(of: entry) }
                            if mask == 0 { continue }
                        }
                        counter.add(FunnelCounter.Event(time: start + Int64(log.offset(at: index)), user: user, value: value, steps: mask))
                    }
                }
            }
        }
    }
}

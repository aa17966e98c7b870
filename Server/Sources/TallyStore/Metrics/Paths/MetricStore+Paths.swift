extension MetricStore {
    /// Where sessions went after their first `start`, or came from before it: see ``Paths``
    /// for the exact definition.
    ///
    /// Reads only what the engine stores, never raw events: the ``BucketLog``s of the range's
    /// UTC days, regrouped by session as ``DaySessions`` (kept between reads), merged and
    /// counted by ``PathCounter``.
    ///
    /// ```swift
    /// let november = ReadScope(app: app, days: CalendarDay("2026-11-01")!...CalendarDay("2026-11-30")!)
    /// let paths = try await store.metrics.paths(from: "Bill editor", kind: .screen, in: november)
    /// paths.levels[0]  // the screens sessions showed right after the bill editor, most first
    /// ```
    ///
    /// - Parameters:
    ///   - start: The event name (or with `kind` ``Paths/Kind/screen``, the screen) paths start from.
    ///   - kind: Whether steps are events or screens.
    ///   - direction: Whether levels are the steps after the start or before it.
    ///   - depth: How many levels: 1 to ``Paths/maximumDepth``.
    ///   - scope: The days sessions are counted on; under a filter, only matching events are
    ///     steps, of matching users.
    /// - Throws: ``TallyStoreError/invalidPaths(_:)``.
    public func paths(
        from start: String, kind: Paths.Kind = .event, direction: Paths.Direction = .after, depth: Int = 3, in scope: ReadScope
    ) async throws -> Paths {
        guard !start.isEmpty else { throw TallyStoreError.invalidPaths("expected a start step") }
        guard (1...Paths.maximumDepth).contains(depth) else {
            throw TallyStoreError.invalidPaths("expected a depth of 1 to \(Paths.maximumDepth), not \(depth)")
        }
        let (app, days) = (scope.app, scope.days)
        return try await read(scope) { calendar in
            let buckets = try calendar.buckets(of: days)
            let utcDays = Bucket.day(of: buckets.lowerBound)..<Bucket.day(of: buckets.upperBound - 1) + 1
            var needs = RollupNeeds(labelTexts: [start, "screen_view"])
            needs.logs = [utcDays.lowerBound * Bucket.perDay..<utcDays.upperBound * Bucket.perDay]
            return needs
        } body: { reader, calendar in
            let buckets = try calendar.buckets(of: days)
            let utcDays = Bucket.day(of: buckets.lowerBound)..<Bucket.day(of: buckets.upperBound - 1) + 1
            let revisions = BucketLogCache.days(
                of: try reader.rows.logRevisions(in: utcDays.lowerBound * Bucket.perDay..<utcDays.upperBound * Bucket.perDay))
            let sessions = try reader.rows.logCache.daySessions(app: app, days: revisions) { day in
                try reader.rows.logs(in: day * Bucket.perDay..<(day + 1) * Bucket.perDay)
            }
            var paths = Paths(
                from: days.lowerBound.description, to: days.upperBound.description, timeZone: calendar.identifier, start: start,
                kind: kind, direction: direction, sessions: 0, levels: Array(repeating: [], count: depth))
            guard let startLabel = try reader.rows.labelID(start) else { return paths }
            let counter = PathCounter(
                kind: kind, direction: direction, depth: depth,
                range: buckets.lowerBound * Bucket.milliseconds..<buckets.upperBound * Bucket.milliseconds, start: startLabel,
                screenView: try reader.rows.labelID("screen_view"))
            let counts = try counter.count(
                zip(revisions, sessions).map { ($0.day * Bucket.perDay * Bucket.milliseconds, $1) }, segment: reader.segment,
                text: reader.rows.label)
            paths.sessions = counts.sessions
            let terminal = direction == .after ? Paths.end : Paths.beginning
            paths.levels = counts.levels.map { level in
                Paths.level(ranking: level.map { Paths.Step(step: $0.key ?? terminal, sessions: $0.value) })
            }
            return paths
        }
    }
}

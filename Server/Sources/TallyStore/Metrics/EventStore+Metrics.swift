import TallyEvent

extension EventStore {
    /// The metrics of one day: see ``DayMetrics`` for the exact definitions.
    ///
    /// Reads only rollups, never raw events: user sets of whole UTC days and of 15-minute
    /// buckets, and the day's per-user detail, so the cost depends on the users active on the
    /// day, not on the number of stored events.
    /// Reflects every batch committed before the call.
    ///
    /// - Parameters:
    ///   - app: The app.
    ///   - date: The day, as `YYYY-MM-DD`.
    ///   - timeZone: The IANA identifier whose day `date` names; `nil` means the app's time zone.
    ///   - filter: The segment to count (see ``SegmentFilter``): with conditions, every figure
    ///     counts only matching events, and users through them; empty counts every event.
    /// - Throws: ``TallyStoreError/invalidDate(_:)``, ``TallyStoreError/invalidTimeZone(_:)``,
    ///   ``TallyStoreError/unknownApp(_:)``, ``TallyStoreError/unsupportedDayBoundary(date:timeZone:)``,
    ///   ``TallyStoreError/unknownFilterProperty(_:)``, or a database error.
    public func metrics(app: AppID, date: String, timeZone: String? = nil, filter: SegmentFilter = SegmentFilter()) async throws -> DayMetrics {
        let day = try CalendarDay(validating: date)
        return try await read(app: app, timeZone: timeZone, filter: filter) { calendar in
            var needs = RollupNeeds.day(try calendar.buckets(of: day...day))
            needs.userWindows += [try calendar.buckets(of: day.advanced(by: -6)...day), try calendar.buckets(of: day.advanced(by: -29)...day)]
            return needs
        } body: { reader, calendar in
            let buckets = try calendar.buckets(of: day...day)
            let detail = try reader.userDetail(in: buckets)
            return DayMetrics(
                date: day.description,
                timeZone: calendar.identifier,
                dau: try reader.activeUsers(in: buckets).count,
                wau: try reader.activeUsers(in: calendar.buckets(of: day.advanced(by: -6)...day)).count,
                mau: try reader.activeUsers(in: calendar.buckets(of: day.advanced(by: -29)...day)).count,
                newUsers: try reader.firstSeenUsers(in: buckets).count,
                events: try reader.eventCounts(in: buckets),
                perUser: detail.perUser,
                versions: detail.versions,
                screens: try reader.screenCounts(in: buckets))
        }
    }

    /// Daily active users and event counts per name for every day from `from` through `to`,
    /// and the range's distinct and new users.
    ///
    /// Each day is defined, and counted exactly, as in ``DayMetrics``.
    ///
    /// - Parameters:
    ///   - app: The app.
    ///   - from: The first day, as `YYYY-MM-DD`.
    ///   - to: The last day, included, as `YYYY-MM-DD`; the range spans at most ``maximumRangeDays`` days.
    ///   - timeZone: The IANA identifier whose days these are; `nil` means the app's time zone.
    ///   - filter: The segment to count (see ``SegmentFilter``); empty counts every event.
    /// - Throws: The errors of ``metrics(app:date:timeZone:filter:)``, and ``TallyStoreError/invalidRange(from:to:)``.
    public func metricsRange(
        app: AppID, from: String, to: String, timeZone: String? = nil, filter: SegmentFilter = SegmentFilter()
    ) async throws -> RangeMetrics {
        let days = try Self.days(from: from, to: to)
        return try await read(app: app, timeZone: timeZone, filter: filter) { calendar in
            let starts = try (days.lowerBound...days.upperBound.advanced(by: 1)).map(calendar.bucket(startOf:))
            return RollupNeeds(
                names: starts.first!..<starts.last!, userWindows: zip(starts, starts.dropFirst()).map { $0..<$1 } + [starts.first!..<starts.last!])
        } body: { reader, calendar in
            let starts = try (days.lowerBound...days.upperBound.advanced(by: 1)).map(calendar.bucket(startOf:))
            var counts: [Int64: [Int]] = [:]
            var dayIndex = 0
            try reader.forEachNameCount(in: starts.first!..<starts.last!) { bucket, name, count in
                while bucket >= starts[dayIndex + 1] { dayIndex += 1 }
                counts[name, default: Array(repeating: 0, count: days.count)][dayIndex] += Int(count)
            }
            var events: [String: [Int]] = [:]
            for (name, series) in counts { events[try reader.label(name)] = series }
            let daily = try zip(starts, starts.dropFirst()).map { try reader.activeUsers(in: $0..<$1) }
            return RangeMetrics(
                from: days.lowerBound.description, to: days.upperBound.description, timeZone: calendar.identifier,
                dates: days.map(\.description), dau: daily.map(\.count), events: events, users: UserSet.union(daily).count,
                newUsers: try reader.firstSeenUsers(in: starts.first!..<starts.last!).count)
        }
    }

    /// `screen_view` events per `screen` property over every day from `from` through `to`:
    /// ``DayMetrics/screens`` of the whole range, counted exactly as for one day.
    ///
    /// - Parameters:
    ///   - app: The app.
    ///   - from: The first day, as `YYYY-MM-DD`.
    ///   - to: The last day, included, as `YYYY-MM-DD`; the range spans at most ``maximumRangeDays`` days.
    ///   - timeZone: The IANA identifier whose days these are; `nil` means the app's time zone.
    ///   - filter: The segment to count (see ``SegmentFilter``); empty counts every event.
    /// - Throws: The errors of ``metricsRange(app:from:to:timeZone:filter:)``.
    public func screenViews(
        app: AppID, from: String, to: String, timeZone: String? = nil, filter: SegmentFilter = SegmentFilter()
    ) async throws -> [String: Int] {
        try await read(app: app, from: from, to: to, timeZone: timeZone, filter: filter) {
            RollupNeeds(screens: $0)
        } body: {
            try $0.screenCounts(in: $1)
        }
    }

    /// The users active on the days `from` through `to`, by the app version of their last
    /// event in them: ``DayMetrics/versions`` of the whole range, each user counted once.
    ///
    /// - Parameters: As for ``screenViews(app:from:to:timeZone:filter:)``.
    /// - Throws: The errors of ``metricsRange(app:from:to:timeZone:filter:)``.
    public func versionUsers(
        app: AppID, from: String, to: String, timeZone: String? = nil, filter: SegmentFilter = SegmentFilter()
    ) async throws -> [String: Int] {
        try await read(app: app, from: from, to: to, timeZone: timeZone, filter: filter) {
            RollupNeeds(activity: $0)
        } body: {
            try $0.versionUsers(in: $1)
        }
    }

    /// Runs `body` over the buckets of the days `from` through `to` (validated as
    /// ``metricsRange(app:from:to:timeZone:filter:)`` documents), in one read of the rollups
    /// `needs` names for those buckets.
    private func read<T: Sendable>(
        app: AppID, from: String, to: String, timeZone: String?, filter: SegmentFilter,
        needs: @escaping @Sendable (Range<Int64>) -> RollupNeeds, body: @escaping @Sendable (RollupReader, Range<Int64>) throws -> T
    ) async throws -> T {
        let days = try Self.days(from: from, to: to)
        return try await read(app: app, timeZone: timeZone, filter: filter) { calendar in
            needs(try calendar.buckets(of: days))
        } body: { reader, calendar in
            try body(reader, calendar.buckets(of: days))
        }
    }

    /// The days `from` through `to`, validated as ``metricsRange(app:from:to:timeZone:)`` documents.
    static func days(from: String, to: String) throws(TallyStoreError) -> ClosedRange<CalendarDay> {
        let first = try CalendarDay(validating: from)
        let last = try CalendarDay(validating: to)
        guard first <= last, first.distance(to: last) < maximumRangeDays else { throw .invalidRange(from: from, to: to) }
        return first...last
    }

    /// Runs `body` over the app's rollups in one consistent read, with the calendar of
    /// `timeZone`, or of the app's time zone when `timeZone` is `nil`, narrowed to `filter`.
    ///
    /// - Parameters:
    ///   - needs: The rows `body` reads, given the same calendar (see ``RollupNeeds``).
    ///   - body: The computation.
    /// - Throws: ``TallyStoreError/invalidTimeZone(_:)``, ``TallyStoreError/unknownApp(_:)``,
    ///   ``TallyStoreError/unknownFilterProperty(_:)``, what `body` throws, or a database error.
    func read<T: Sendable>(
        app: AppID, timeZone: String?, filter: SegmentFilter = SegmentFilter(),
        needs: @escaping @Sendable (LocalCalendar) throws -> RollupNeeds,
        body: @escaping @Sendable (RollupReader, LocalCalendar) throws -> T
    ) async throws -> T {
        let requestedCalendar = try timeZone.map { identifier throws(TallyStoreError) in try LocalCalendar(identifier: identifier) }
        return try await backend.readRollups(app: app) { stored in
            let needs = try needs(requestedCalendar ?? LocalCalendar(identifier: stored.timeZone))
            return filter.isEmpty ? needs : needs.segmented
        } body: { reader, stored in
            var reader = reader
            reader.properties = stored.segmentProperties
            if !filter.isEmpty {
                reader.segment = try SegmentMatcher(filter, properties: stored.segmentProperties, rows: reader.rows)
            }
            return try body(reader, requestedCalendar ?? LocalCalendar(identifier: stored.timeZone))
        }
    }

    /// The milliseconds of the local day `date` (see ``metrics(app:date:timeZone:)``) and the
    /// calendar of `timeZone`, or of the app's time zone when `timeZone` is `nil`.
    ///
    /// - Throws: The errors of ``metrics(app:date:timeZone:)``.
    func day(_ date: String, app: AppID, timeZone: String?) async throws -> (milliseconds: Range<Int64>, calendar: LocalCalendar) {
        let day = try CalendarDay(validating: date)
        let requestedCalendar = try timeZone.map { identifier throws(TallyStoreError) in try LocalCalendar(identifier: identifier) }
        guard let stored = try await backend.app(id: app) else { throw TallyStoreError.unknownApp(app) }
        let calendar = try requestedCalendar ?? LocalCalendar(identifier: stored.timeZone)
        let buckets = try calendar.buckets(of: day...day)
        return (buckets.lowerBound * Bucket.milliseconds..<buckets.upperBound * Bucket.milliseconds, calendar)
    }
}

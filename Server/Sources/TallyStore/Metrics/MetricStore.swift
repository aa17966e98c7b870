import Foundation
import TallyEvent

/// The exact metrics of an app's events: a day's and a range's figures, funnels, paths,
/// retention, revenue, property metrics and data health, each read in a ``ReadScope``.
///
/// Every read is computed by the same code on SQLite and PostgreSQL, mostly from the rollups
/// the group commit keeps beside the raw events, and reflects every batch committed before
/// the call. Reached as ``EventStore/metrics``:
///
/// ```swift
/// let scope = ReadScope(app: app, days: CalendarDay("2026-11-01")!...CalendarDay("2026-11-30")!)
/// let funnel = try await store.metrics.funnel(["app_open", "bill_created"], in: scope)
/// ```
///
/// Every read throws ``TallyStoreError/invalidRange(from:to:)`` for a scope longer than
/// ``ReadScope/maximumDays``, ``TallyStoreError/unknownApp(_:)``,
/// ``TallyStoreError/unsupportedDayBoundary(date:timeZone:)`` where a zone's day does not start
/// on a quarter hour, ``TallyStoreError/unknownFilterProperty(_:)`` for a filter on a property
/// the app does not know, or a database error; and what it documents besides.
public struct MetricStore: Sendable {
    let store: EventStore
    var backend: any StoreBackend { store.backend }
}

extension EventStore {
    /// The exact metrics of the apps' events.
    public var metrics: MetricStore { MetricStore(store: self) }
}

extension MetricStore {
    /// The metrics of the scope's last day (``ReadScope/day``), its weekly and monthly
    /// actives ending on it: see ``DayMetrics`` for the exact definitions.
    ///
    /// Reads only rollups, never raw events: user sets of whole UTC days and of 15-minute
    /// buckets, and the day's per-user detail, so the cost depends on the users active on the
    /// day, not on the number of stored events.
    public func day(_ scope: ReadScope) async throws -> DayMetrics {
        let day = scope.day
        return try await read(scope) { calendar in
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

    /// Daily active users and event counts per name for every day of the scope, and its
    /// distinct and new users.
    ///
    /// Each day is defined, and counted exactly, as in ``DayMetrics``.
    public func range(_ scope: ReadScope) async throws -> RangeMetrics {
        let days = scope.days
        return try await read(scope) { calendar in
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

    /// `screen_view` events per `screen` property over every day of the scope:
    /// ``DayMetrics/screens`` of the whole range, counted exactly as for one day.
    public func screenViews(_ scope: ReadScope) async throws -> [String: Int] {
        try await readBuckets(scope) {
            RollupNeeds(screens: $0)
        } body: {
            try $0.screenCounts(in: $1)
        }
    }

    /// The users active on the scope's days, by the app version of their last event in them:
    /// ``DayMetrics/versions`` of the whole range, each user counted once.
    public func versionUsers(_ scope: ReadScope) async throws -> [String: Int] {
        try await readBuckets(scope) {
            RollupNeeds(activity: $0)
        } body: {
            try $0.versionUsers(in: $1)
        }
    }

    /// Runs `body` over the buckets of the scope's days, in one read of the rollups `needs`
    /// names for those buckets.
    private func readBuckets<T: Sendable>(
        _ scope: ReadScope, needs: @escaping @Sendable (Range<Int64>) -> RollupNeeds,
        body: @escaping @Sendable (RollupReader, Range<Int64>) throws -> T
    ) async throws -> T {
        try await read(scope) { calendar in
            needs(try calendar.buckets(of: scope.days))
        } body: { reader, calendar in
            try body(reader, calendar.buckets(of: scope.days))
        }
    }

    /// Runs `body` over the scope's app's rollups in one consistent read, with the calendar of
    /// its time zone (or the app's), narrowed to its filter.
    ///
    /// - Parameters:
    ///   - needs: The rows `body` reads, given the same calendar (see ``RollupNeeds``).
    ///   - body: The computation.
    /// - Throws: ``TallyStoreError/invalidRange(from:to:)``, ``TallyStoreError/unknownApp(_:)``,
    ///   ``TallyStoreError/unknownFilterProperty(_:)``, what `body` throws, or a database error.
    func read<T: Sendable>(
        _ scope: ReadScope,
        needs: @escaping @Sendable (LocalCalendar) throws -> RollupNeeds,
        body: @escaping @Sendable (RollupReader, LocalCalendar) throws -> T
    ) async throws -> T {
        let scope = try scope.validated()
        return try await store.read(app: scope.app, timeZone: scope.timeZone, filter: scope.filter, needs: needs, body: body)
    }

    /// The milliseconds of the scope's days and the calendar they are in.
    ///
    /// - Throws: ``TallyStoreError/invalidRange(from:to:)``, ``TallyStoreError/unknownApp(_:)``,
    ///   ``TallyStoreError/unsupportedDayBoundary(date:timeZone:)``, or a database error.
    func milliseconds(of scope: ReadScope) async throws -> (milliseconds: Range<Int64>, calendar: LocalCalendar) {
        let scope = try scope.validated()
        guard let stored = try await backend.app(id: scope.app) else { throw TallyStoreError.unknownApp(scope.app) }
        let calendar = try scope.timeZone.map { LocalCalendar(timeZone: $0) } ?? LocalCalendar(identifier: stored.timeZone)
        let buckets = try calendar.buckets(of: scope.days)
        return (buckets.lowerBound * Bucket.milliseconds..<buckets.upperBound * Bucket.milliseconds, calendar)
    }
}

extension EventStore {
    /// Runs `body` over the app's rollups in one consistent read, with the calendar of
    /// `timeZone`, or of the app's time zone when `timeZone` is `nil`, narrowed to `filter`.
    ///
    /// - Parameters:
    ///   - needs: The rows `body` reads, given the same calendar (see ``RollupNeeds``).
    ///   - body: The computation.
    /// - Throws: ``TallyStoreError/unknownApp(_:)``, ``TallyStoreError/unknownFilterProperty(_:)``,
    ///   what `body` throws, or a database error.
    func read<T: Sendable>(
        app: AppID, timeZone: TimeZone?, filter: SegmentFilter = SegmentFilter(),
        needs: @escaping @Sendable (LocalCalendar) throws -> RollupNeeds,
        body: @escaping @Sendable (RollupReader, LocalCalendar) throws -> T
    ) async throws -> T {
        let requestedCalendar = timeZone.map { LocalCalendar(timeZone: $0) }
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
}

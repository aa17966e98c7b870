import Foundation
import TallyEvent
public import TallyStore

extension DayReport {
    /// How many of the latest events the live feed shows.
    public static let feedLength = 8

    /// Reads what a page of `query` shows: the report of its last day, the range's metrics,
    /// screen views and users by version when it spans days, the charts' window, the day's data health (of everything the app sent), the latest events, the funnels
    /// and the revenue over the range and, when it compares, the previous period; of the app's debug builds
    /// when the query asks. Everything but the data health counts only the query's
    /// ``PageQuery/filter``.
    public static func load(from store: EventStore, app: AppID, layout: DashboardLayout, query: PageQuery) async throws -> DayReport {
        let metrics = store.metrics
        async let health = metrics.dataHealth(ReadScope(app: app.production, day: query.date, timeZone: query.timeZone))
        let app = query.debug ? app.debug : app.production
        let start = min(query.from, query.date.adding(-29))
        let shift = -query.days
        let (range, day, trend) = (
            query.scope(of: app), query.scope(of: app, days: query.date...query.date), query.scope(of: app, days: start...query.date)
        )
        // Independent reads, run side by side.
        async let dayReport = load(from: store, layout: layout, in: day)
        async let trendMetrics = metrics.range(trend)
        // Under a filter, the feed's events are the matching ones of the latest the store reads.
        async let latest = store.events.latest(app: app, limit: feedLength, filter: query.filter)
        async let returning = layout.sections.contains { $0.content == .retention } ? metrics.returningUsers(after: retentionDays, in: day) : []
        async let funnels = funnels(from: store, layout: layout, in: range)
        let showsRevenue = layout.sections.contains { $0.content == .revenue }
        async let revenue = showsRevenue ? metrics.revenue(range) : nil
        async let revenueTrend = showsRevenue ? metrics.revenue(trend) : nil
        async let rangeMetrics = query.days > 1 ? metrics.range(range) : nil
        async let rangeScreens = query.days > 1 ? metrics.screenViews(range) : nil
        async let rangeVersions = query.days > 1 ? metrics.versionUsers(range) : nil
        var report = try await dayReport
        if query.compare {
            func shifted(_ scope: ReadScope) -> ReadScope {
                var scope = scope
                scope.days = scope.days.lowerBound.adding(shift)...scope.days.upperBound.adding(shift)
                return scope
            }
            async let previousTrend = metrics.range(shifted(trend))
            async let previousRange = query.days > 1 ? metrics.range(shifted(range)) : nil
            report.previous = try await metrics.day(shifted(day))
            report.previousTrend = try await previousTrend
            report.previousRange = try await previousRange
        }
        report.range = try await rangeMetrics
        report.rangeScreens = try await rangeScreens
        report.rangeVersions = try await rangeVersions
        report.trend = try await trendMetrics
        report.health = try await health
        report.latest = try await latest
        report.returning = try await returning
        report.funnels = try await funnels
        report.revenue = try await revenue
        report.revenueTrend = try await revenueTrend
        // Annotations and alerts decorate the page: one that cannot be read leaves it as it is.
        var zone = query.timeZone
        if zone == nil { zone = try? await store.apps.app(id: app.production).flatMap { TimeZone(identifier: $0.timeZone) } }
        let local = zone ?? .gmt
        let notes = try? await store.annotations.list(
            app: app, from: start.start(in: local) ?? .distantPast, to: query.date.adding(1).start(in: local) ?? .distantFuture)
        report.annotations = (notes ?? []).map { ChartAnnotation(day: CalendarDay($0.time, in: local).description, text: $0.text) }
        report.firedAlerts = (try? await store.alerts.evaluations(app: app, firedOnly: true, limit: 3)) ?? []
        return report
    }

    /// The funnel sections of `layout` in `scope`, each counted on its own: one the store
    /// refuses (a step on a property the app does not name) says why and leaves the others.
    private static func funnels(from store: EventStore, layout: DashboardLayout, in scope: ReadScope) async throws -> [String: FunnelReport] {
        try await withThrowingTaskGroup(of: (String, FunnelReport).self) { group in
            for section in layout.sections {
                guard case .funnel(let funnel) = section.content else { continue }
                group.addTask {
                    do {
                        let counted = try await store.metrics.funnel(funnel.steps, window: funnel.window.seconds, in: scope)
                        return (section.id, .counted(counted))
                    } catch let error as TallyStoreError {
                        return (section.id, .failed(error.description))
                    }
                }
            }
            var funnels: [String: FunnelReport] = [:]
            for try await (id, funnel) in group { funnels[id] = funnel }
            return funnels
        }
    }

    /// Reads the report of the scope's last day (``ReadScope/day``) for the sections of
    /// `layout`, counting only the events of its filter.
    ///
    /// Counts and per-user figures come from the day's metrics, so one read of the rollups
    /// serves every section that shows them; distinct users from the day's per-user rollup;
    /// averages, empty shares and breakdowns from the day's raw events (saying so when the
    /// app no longer keeps them all), one query each, side by side.
    public static func load(from store: EventStore, layout: DashboardLayout, in scope: ReadScope) async throws -> DayReport {
        let scope = scope.lastDay
        async let dayMetrics = store.metrics.day(scope)
        async let stored = store.apps.app(id: scope.app.production)
        // The raw-event measures are independent reads: the store's pool runs them side by side.
        let measured = try await withThrowingTaskGroup(of: (String, MetricValue, Breakdown?)?.self) { group in
            for case .metrics(let list) in layout.sections.map(\.content) {
                for metric in list {
                    group.addTask { try await measure(metric, in: scope, store: store) }
                }
            }
            var measured: [(String, MetricValue, Breakdown?)] = []
            for try await result in group { if let result { measured.append(result) } }
            return measured
        }
        let metrics = try await dayMetrics
        let horizon = try await stored.flatMap { RawEventHorizon(app: $0, day: scope.day, timeZone: scope.timeZone) }
        var values: [String: MetricValue] = [:]
        var breakdowns: [String: Breakdown] = [:]
        for (key, value, breakdown) in measured {
            values[key] = value
            breakdowns[key] = breakdown
        }
        for case .metrics(let list) in layout.sections.map(\.content) {
            for metric in list {
                switch metric.measure {
                case .count(let event):
                    values[metric.key] = MetricValue(String(metrics.events[event, default: 0]))
                case .perUser(let event):
                    let (average, maximum) = metrics.perUser[event].map { ($0.average, $0.maximum) } ?? (0, 0)
                    values[metric.key] = MetricValue(String(format: "%.1f", average), detail: "max \(maximum)")
                case .average, .emptyShare, .breakdown:
                    // Read from raw events: say so when the day's are not all kept.
                    if let horizon, let value = values[metric.key] { values[metric.key] = horizon.marked(value) }
                case .distinctUsers:
                    break
                }
            }
        }
        return DayReport(metrics: metrics, values: values, breakdowns: breakdowns)
    }

    /// The value of `metric` when it is read on its own; `nil` for the measures the day's
    /// metrics answer (counts, per-user figures).
    private static func measure(_ metric: DashboardLayout.Metric, in scope: ReadScope, store: EventStore) async throws -> (
        String, MetricValue, Breakdown?
    )? {
        switch metric.measure {
        case .count, .perUser:
            return nil
        case .distinctUsers(let event):
            let users = try await store.metrics.distinctUsers(of: event, in: scope)
            return (metric.key, MetricValue(String(users)), nil)
        case .average(let event, let property, let unit):
            let summary = try await store.metrics.average(of: property, event: event, in: scope)
            let value =
                summary.average.map { average in
                    MetricValue(
                        String(format: "%.1f", average) + (unit.map { " \($0)" } ?? ""),
                        detail: summary.maximum.map { "max " + String(format: "%g", $0) })
                } ?? MetricValue("—", detail: "no values")
            return (metric.key, value, nil)
        case .emptyShare(let event, let property):
            let share = try await store.metrics.emptyShare(of: property, event: event, in: scope)
            return (
                metric.key, MetricValue(share.share.map { String(format: "%.0f%%", $0 * 100) } ?? "—", detail: "\(share.empty) of \(share.events)"),
                nil
            )
        case .breakdown(let event, let property):
            let breakdown = try await store.metrics.breakdown(event: event, by: property, limit: MetricSheet.breakdownLength, in: scope)
            let value = MetricValue(
                breakdown.top.first?.value ?? "—", detail: breakdown.top.prefix(3).map { "\($0.value): \($0.events)" }.joined(separator: ", "))
            return (metric.key, value, breakdown)
        }
    }
}

/// Where the raw events of a day begin, when the app no longer keeps all of them: the values
/// read from raw events (an average, an empty share, a breakdown) say so.
struct RawEventHorizon {
    /// When the kept raw events begin, within the day or after it.
    let keptSince: Date
    /// Whether the day has no raw event left.
    let isWholeDay: Bool
    /// The day's time zone, whose clock names ``keptSince``.
    let zone: TimeZone

    /// The horizon of `day` (in `timeZone`, or the app's) for `app`; `nil` when the app
    /// keeps every raw event of the day.
    init?(app: App, day: CalendarDay, timeZone: TimeZone?) {
        guard let keptSince = app.rawEventsKeptSince else { return nil }
        let zone = timeZone ?? TimeZone(identifier: app.timeZone) ?? .gmt
        guard let start = day.start(in: zone), keptSince > start else { return nil }
        self.keptSince = keptSince
        self.isWholeDay = keptSince >= day.adding(1).start(in: zone) ?? .distantFuture
        self.zone = zone
    }

    /// `value`, saying that the day's raw events are gone, or from when they are kept.
    func marked(_ value: MetricValue) -> MetricValue {
        if isWholeDay { return MetricValue("—", detail: "raw events of this day are no longer kept") }
        return MetricValue(
            value.text,
            detail: [value.detail, "from \(keptSince.clock(in: zone)) on: earlier raw events are no longer kept"].compactMap { $0 }.joined(
                separator: "; "))
    }
}

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
        async let health = store.dataHealth(app: app.production, date: query.date.description, timeZone: query.timeZone)
        let app = query.debug ? app.debug : app.production
        let zone = query.timeZone
        let filter = query.filter
        let start = min(query.from, query.date.adding(-29))
        let shift = -query.days
        // Independent reads, run side by side.
        async let day = load(from: store, app: app, layout: layout, date: query.date.description, timeZone: zone, filter: filter)
        async let trend = store.metricsRange(app: app, from: start.description, to: query.date.description, timeZone: zone, filter: filter)
        // Under a filter, the feed's events are the matching ones of the latest the store reads.
        async let latest = store.latestEvents(app: app, limit: feedLength, filter: filter)
        async let returning =
            layout.sections.contains { $0.content == .retention }
            ? store.returningUsers(app: app, date: query.date.description, after: retentionDays, timeZone: zone, filter: filter)
            : []
        async let funnels = funnels(from: store, app: app, layout: layout, query: query)
        let showsRevenue = layout.sections.contains { $0.content == .revenue }
        async let revenue =
            showsRevenue
            ? store.revenue(app: app, from: query.from.description, to: query.date.description, timeZone: zone, filter: filter) : nil
        async let revenueTrend =
            showsRevenue ? store.revenue(app: app, from: start.description, to: query.date.description, timeZone: zone, filter: filter) : nil
        async let range =
            query.days > 1
            ? store.metricsRange(app: app, from: query.from.description, to: query.date.description, timeZone: zone, filter: filter) : nil
        async let rangeScreens =
            query.days > 1
            ? store.screenViews(app: app, from: query.from.description, to: query.date.description, timeZone: zone, filter: filter) : nil
        async let rangeVersions =
            query.days > 1
            ? store.versionUsers(app: app, from: query.from.description, to: query.date.description, timeZone: zone, filter: filter) : nil
        var report = try await day
        if query.compare {
            async let previousTrend = store.metricsRange(
                app: app, from: start.adding(shift).description, to: query.date.adding(shift).description, timeZone: zone, filter: filter)
            async let previousRange =
                query.days > 1
                ? store.metricsRange(
                    app: app, from: query.from.adding(shift).description, to: query.date.adding(shift).description, timeZone: zone, filter: filter)
                : nil
            report.previous = try await store.metrics(app: app, date: query.date.adding(shift).description, timeZone: zone, filter: filter)
            report.previousTrend = try await previousTrend
            report.previousRange = try await previousRange
        }
        report.range = try await range
        report.rangeScreens = try await rangeScreens
        report.rangeVersions = try await rangeVersions
        report.trend = try await trend
        report.health = try await health
        report.latest = try await latest
        report.returning = try await returning
        report.funnels = try await funnels
        report.revenue = try await revenue
        report.revenueTrend = try await revenueTrend
        // Annotations and alerts decorate the page: one that cannot be read leaves it as it is.
        var zoneName = query.timeZone
        if zoneName == nil { zoneName = try? await store.app(id: app.production)?.timeZone }
        let local = TimeZone(identifier: zoneName ?? "UTC") ?? .gmt
        let notes = try? await store.annotations(
            app: app, from: start.start(in: local) ?? .distantPast, to: query.date.adding(1).start(in: local) ?? .distantFuture)
        report.annotations = (notes ?? []).map { ChartAnnotation(day: CalendarDay($0.time, in: local).description, text: $0.text) }
        report.firedAlerts = (try? await store.alertEvaluations(app: app, firedOnly: true, limit: 3)) ?? []
        return report
    }

    /// The funnel sections of `layout` over the query's range and filter, each counted on its
    /// own: one the store refuses (a step on a property the app does not name) says why and
    /// leaves the others.
    private static func funnels(from store: EventStore, app: AppID, layout: DashboardLayout, query: PageQuery) async throws -> [String: FunnelReport]
    {
        try await withThrowingTaskGroup(of: (String, FunnelReport).self) { group in
            for section in layout.sections {
                guard case .funnel(let funnel) = section.content else { continue }
                group.addTask {
                    do {
                        let counted = try await store.funnel(
                            app: app, steps: funnel.steps, from: query.from.description, to: query.date.description,
                            window: funnel.window.seconds, timeZone: query.timeZone, filter: query.filter)
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

    /// Reads the report of `date` (in `timeZone`, or the app's) for the sections of `layout`,
    /// counting only the events of `filter`.
    ///
    /// Counts and per-user figures come from the day's metrics, so one read of the rollups
    /// serves every section that shows them; distinct users from the day's per-user rollup;
    /// averages, empty shares and breakdowns from the day's raw events (saying so when the
    /// app no longer keeps them all), one query each, side by side.
    public static func load(
        from store: EventStore, app: AppID, layout: DashboardLayout, date: String, timeZone: String? = nil,
        filter: SegmentFilter = SegmentFilter()
    ) async throws -> DayReport {
        async let dayMetrics = store.metrics(app: app, date: date, timeZone: timeZone, filter: filter)
        async let stored = store.app(id: app.production)
        // The raw-event measures are independent reads: the store's pool runs them side by side.
        let measured = try await withThrowingTaskGroup(of: (String, MetricValue, Breakdown?)?.self) { group in
            for case .metrics(let list) in layout.sections.map(\.content) {
                for metric in list {
                    group.addTask { try await measure(metric, store: store, app: app, date: date, timeZone: timeZone, filter: filter) }
                }
            }
            var measured: [(String, MetricValue, Breakdown?)] = []
            for try await result in group { if let result { measured.append(result) } }
            return measured
        }
        let metrics = try await dayMetrics
        let horizon = try await stored.flatMap { RawEventHorizon(app: $0, date: date, timeZone: timeZone) }
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
    private static func measure(
        _ metric: DashboardLayout.Metric, store: EventStore, app: AppID, date: String, timeZone: String?, filter: SegmentFilter
    ) async throws -> (String, MetricValue, Breakdown?)? {
        switch metric.measure {
        case .count, .perUser:
            return nil
        case .distinctUsers(let event):
            let users = try await store.distinctUsers(app: app, event: event, date: date, timeZone: timeZone, filter: filter)
            return (metric.key, MetricValue(String(users)), nil)
        case .average(let event, let property, let unit):
            let summary = try await store.propertyAverage(
                app: app, event: event, property: property, date: date, timeZone: timeZone, filter: filter)
            let value =
                summary.average.map { average in
                    MetricValue(
                        String(format: "%.1f", average) + (unit.map { " \($0)" } ?? ""),
                        detail: summary.maximum.map { "max " + String(format: "%g", $0) })
                } ?? MetricValue("—", detail: "no values")
            return (metric.key, value, nil)
        case .emptyShare(let event, let property):
            let share = try await store.emptyPropertyShare(
                app: app, event: event, property: property, date: date, timeZone: timeZone, filter: filter)
            return (
                metric.key, MetricValue(share.share.map { String(format: "%.0f%%", $0 * 100) } ?? "—", detail: "\(share.empty) of \(share.events)"),
                nil
            )
        case .breakdown(let event, let property):
            let breakdown = try await store.breakdown(
                app: app, event: event, property: property, date: date, timeZone: timeZone, limit: MetricSheet.breakdownLength, filter: filter)
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

    /// The horizon of `date` (in `timeZone`, or the app's) for `app`; `nil` when the app
    /// keeps every raw event of the day.
    init?(app: App, date: String, timeZone: String?) {
        guard let keptSince = app.rawEventsKeptSince, let day = CalendarDay(date) else { return nil }
        let zone = TimeZone(identifier: timeZone ?? app.timeZone) ?? .gmt
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

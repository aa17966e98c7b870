import Foundation
public import TallyStore

extension DayReport {
    /// How many of the latest events the live feed shows.
    public static let feedLength = 8

    /// Reads what a page of `query` shows: the report of its last day, the charts' window,
    /// the day's data health, the latest events and, when it compares, the previous period.
    public static func load(from store: EventStore, app: AppID, layout: DashboardLayout, query: PageQuery) async throws -> DayReport {
        let zone = query.timeZone
        var report = try await load(from: store, app: app, layout: layout, date: query.date.description, timeZone: zone)
        let start = min(query.from, query.date.adding(-29))
        report.trend = try await store.metricsRange(app: app, from: start.description, to: query.date.description, timeZone: zone)
        if query.compare {
            let shift = -query.days
            report.previousTrend = try await store.metricsRange(
                app: app, from: start.adding(shift).description, to: query.date.adding(shift).description, timeZone: zone)
            report.previous = try await store.metrics(app: app, date: query.date.adding(shift).description, timeZone: zone)
        }
        report.health = try await store.dataHealth(app: app, date: query.date.description, timeZone: zone)
        report.latest = try await store.latestEvents(app: app, limit: feedLength)
        return report
    }

    /// Reads the report of `date` (in `timeZone`, or the app's) for the sections of `layout`.
    ///
    /// Counts and per-user figures come from the day's metrics, so one read of the rollups
    /// serves every section that shows them; averages, empty shares, distinct users and
    /// breakdowns are read from the day's raw events, one query each.
    public static func load(
        from store: EventStore, app: AppID, layout: DashboardLayout, date: String, timeZone: String? = nil
    ) async throws -> DayReport {
        let metrics = try await store.metrics(app: app, date: date, timeZone: timeZone)
        var values: [String: MetricValue] = [:]
        var breakdowns: [String: Breakdown] = [:]
        for case .metrics(let list) in layout.sections.map(\.content) {
            for metric in list {
                switch metric.measure {
                case .count(let event):
                    values[metric.key] = MetricValue(String(metrics.events[event, default: 0]))
                case .perUser(let event):
                    let (average, maximum) = metrics.perUser[event].map { ($0.average, $0.maximum) } ?? (0, 0)
                    values[metric.key] = MetricValue(String(format: "%.1f", average), detail: "max \(maximum)")
                case .average(let event, let property, let unit):
                    let summary = try await store.propertyAverage(app: app, event: event, property: property, date: date, timeZone: timeZone)
                    values[metric.key] = summary.average.map { average in
                        MetricValue(
                            String(format: "%.1f", average) + (unit.map { " \($0)" } ?? ""),
                            detail: summary.maximum.map { "max " + String(format: "%g", $0) })
                    } ?? MetricValue("—", detail: "no values")
                case .emptyShare(let event, let property):
                    let share = try await store.emptyPropertyShare(app: app, event: event, property: property, date: date, timeZone: timeZone)
                    values[metric.key] = MetricValue(
                        share.share.map { String(format: "%.0f%%", $0 * 100) } ?? "—", detail: "\(share.empty) of \(share.events)")
                case .distinctUsers(let event):
                    values[metric.key] = MetricValue(String(try await store.distinctUsers(app: app, event: event, date: date, timeZone: timeZone)))
                case .breakdown(let event, let property):
                    let breakdown = try await store.breakdown(
                        app: app, event: event, property: property, date: date, timeZone: timeZone, limit: MetricSheet.breakdownLength)
                    breakdowns[metric.key] = breakdown
                    values[metric.key] = MetricValue(
                        breakdown.top.first?.value ?? "—",
                        detail: breakdown.top.prefix(3).map { "\($0.value): \($0.events)" }.joined(separator: ", "))
                }
            }
        }
        return DayReport(metrics: metrics, values: values, breakdowns: breakdowns)
    }
}

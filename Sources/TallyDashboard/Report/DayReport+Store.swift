import Foundation
public import TallyStore

extension DayReport {
    /// Reads the report of `date` (in `timeZone`, or the app's) for the sections of `layout`.
    ///
    /// Counts and per-user figures come from the day's metrics, so one read of the rollups
    /// serves every section that shows them.
    public static func load(
        from store: EventStore, app: AppID, layout: DashboardLayout, date: String, timeZone: String? = nil
    ) async throws -> DayReport {
        let metrics = try await store.metrics(app: app, date: date, timeZone: timeZone)
        var values: [String: MetricValue] = [:]
        for case .metrics(let list) in layout.sections.map(\.content) {
            for metric in list {
                switch metric.measure {
                case .count(let event):
                    values[metric.key] = MetricValue(String(metrics.events[event, default: 0]))
                case .perUser(let event):
                    let (average, maximum) = metrics.perUser[event].map { ($0.average, $0.maximum) } ?? (0, 0)
                    values[metric.key] = MetricValue(String(format: "%.1f", average), detail: "max \(maximum)")
                case .average, .emptyShare, .distinctUsers, .breakdown:
                    continue  // read from raw events; not measured yet
                }
            }
        }
        return DayReport(metrics: metrics, values: values)
    }
}

public import TallyStore

/// What the dashboard shows for one local day of an app: the store's answers, gathered
/// once per refresh and read by every section.
public struct DayReport: Hashable, Sendable {
    /// The day's exact metrics.
    public var metrics: DayMetrics
    /// The layout's configured metrics, by key; a key missing here shows as not measured.
    public var values: [String: MetricValue]

    /// Creates a report.
    public init(metrics: DayMetrics, values: [String: MetricValue] = [:]) {
        self.metrics = metrics
        self.values = values
    }
}

public import TallyEvent
public import TallyStore

/// What the dashboard shows for one local day of an app: the store's answers, gathered
/// once per refresh and read by every section.
public struct DayReport: Hashable, Sendable {
    /// The day's exact metrics.
    public var metrics: DayMetrics
    /// The layout's configured metrics, by key; a key missing here shows as not measured.
    public var values: [String: MetricValue]
    /// The breakdowns of the layout's breakdown metrics, by key: the top values of the day.
    public var breakdowns: [String: Breakdown]
    /// Daily users and events over the charts' window: the page's range, and at least the
    /// 30 days that end on the day.
    public var trend: RangeMetrics?
    /// The same window one period earlier, when the page compares.
    public var previousTrend: RangeMetrics?
    /// The metrics of the previous period's last day, when the page compares.
    public var previous: DayMetrics?
    /// The range's metrics, its distinct and new users among them, when the page shows
    /// more than one day.
    public var range: RangeMetrics?
    /// The same for the previous period, when such a page compares.
    public var previousRange: RangeMetrics?
    /// Screen views per screen over the range, when the page shows more than one day.
    public var rangeScreens: [String: Int]?
    /// The range's users by the app version of their last event, when the page shows more
    /// than one day.
    public var rangeVersions: [String: Int]?
    /// Accepted, duplicate, rejected and dropped events of the day.
    public var health: DataHealth?
    /// The app's latest events, newest first: the live feed.
    public var latest: [Event]
    /// Of the users first seen each of ``retentionDays`` days before the day, how many came
    /// back on it, when the layout has a retention section.
    public var returning: [ReturningUsers]
    /// The layout's funnel sections over the page's range, by section id.
    public var funnels: [String: FunnelReport]
    /// The revenue of the page's range, when the layout has a revenue section.
    public var revenue: RevenueMetrics?
    /// The revenue of the charts' window, when the layout has a revenue section.
    public var revenueTrend: RevenueMetrics?
    /// The app's annotations over the charts' window, which every chart marks.
    public var annotations: [ChartAnnotation] = []
    /// The alerts that fired lately, newest first (the App section's banner).
    public var firedAlerts: [AlertEvaluation] = []

    /// How many days before the day the retention section looks back, for each of its tiles.
    public static let retentionDays = [1, 7, 30]

    /// Creates a report.
    public init(
        metrics: DayMetrics, values: [String: MetricValue] = [:], breakdowns: [String: Breakdown] = [:], trend: RangeMetrics? = nil,
        previousTrend: RangeMetrics? = nil,
        previous: DayMetrics? = nil, health: DataHealth? = nil, latest: [Event] = [], returning: [ReturningUsers] = [],
        funnels: [String: FunnelReport] = [:]
    ) {
        self.metrics = metrics
        self.values = values
        self.breakdowns = breakdowns
        self.trend = trend
        self.previousTrend = previousTrend
        self.previous = previous
        self.health = health
        self.latest = latest
        self.returning = returning
        self.funnels = funnels
    }

    /// Users by the app version of their last event over the page's range: the day's on a
    /// page of one day.
    public var versionUsers: [String: Int] { rangeVersions ?? metrics.versions }

    /// Screen views per screen over the page's range: the day's on a page of one day.
    public var screenViews: [String: Int] { rangeScreens ?? metrics.screens }

    /// Events per name over the page's range: the day's on a page of one day.
    public var eventCounts: [String: Int] { range?.events.mapValues { $0.reduce(0, +) } ?? metrics.events }
}

/// A funnel as a report holds it: counted, or why it could not be.
public enum FunnelReport: Hashable, Sendable {
    /// The store's counts.
    case counted(Funnel)
    /// What the store refused (a step on a property the app does not name, say), as people read it.
    case failed(String)
}

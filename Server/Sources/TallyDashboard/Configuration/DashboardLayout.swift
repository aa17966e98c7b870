public import TallyStore

/// What a dashboard shows: its sections, in their default order, and the metrics of each.
///
/// A layout comes from a file (see ``init(yaml:)``), so a new app needs no code: name the
/// events and properties it sends, and how to measure them. The order is the default; each
/// user may reorder and hide sections, and that choice is kept per user.
public struct DashboardLayout: Hashable, Sendable {
    /// The sections, in their default order; identifiers are unique.
    public var sections: [Section]
    /// The alert rules of the file (``DashboardAlerts``).
    public var alerts: DashboardAlerts

    /// Creates a layout of `sections`, with the alert rules `alerts`.
    public init(sections: [Section], alerts: DashboardAlerts = DashboardAlerts()) {
        self.sections = sections
        self.alerts = alerts
    }

    /// The section whose identifier is `id`.
    public func section(_ id: String) -> Section? {
        sections.first { $0.id == id }
    }
}

extension DashboardLayout {
    /// One section of the page: a card with a title and what it shows.
    public struct Section: Hashable, Sendable {
        /// The identifier: a component identifier, used in URLs, saved orders and the page's
        /// `data-section` attributes. Letters, digits, `_` and `-`, at most 64.
        public var id: String
        /// The heading shown to people.
        public var title: String
        /// What the section shows.
        public var content: Content

        /// Creates a section.
        public init(id: String, title: String, content: Content) {
            self.id = id
            self.title = title
            self.content = content
        }
    }

    /// What a section shows: configured metrics, or one of the built-in sections.
    public enum Content: Hashable, Sendable {
        /// Headline numbers, each measured as its ``Metric`` says.
        case metrics([Metric])
        /// DAU, WAU, MAU and new users, with a 30-day trend of DAU.
        case app
        /// Users by app version.
        case versions
        /// Enters per screen; `names` maps a screen's sent name to the name people read.
        case screens(names: [String: String])
        /// The most sent events of the day.
        case topEvents
        /// The latest events, as they arrive.
        case liveFeed
        /// Of the users new 1, 7 and 30 days before the day (``DayReport/retentionDays``), the
        /// share who came back on it.
        case retention
        /// Paying users, first-time payers, and per currency the revenue and the average
        /// revenue per paying user over the page's range, from the app's purchase events, with
        /// a daily chart of paying users.
        case revenue
        /// Accepted, duplicate and rejected events and the SDKs' reported drops; the page
        /// flags the data as unreliable when rejections and drops pass `unreliableShare` of
        /// what was sent.
        case dataHealth(unreliableShare: Double)
        /// How many users went through steps in order over the page's range, as bars: each
        /// step's users, its conversion from the first step and the drop from the one before.
        case funnel(Funnel)
    }

    /// The steps of a ``Content/funnel(_:)`` section and how long a chain of them may take.
    public struct Funnel: Hashable, Sendable {
        /// 2 to ``TallyStore/Funnel/maximumSteps`` steps, in order.
        public var steps: [FunnelStep]
        /// How long a chain may take from its first event.
        public var window: FunnelWindow

        /// A funnel of `steps` within `window`.
        public init(steps: [FunnelStep], window: FunnelWindow = .day) {
            self.steps = steps
            self.window = window
        }
    }

    /// A headline number of a ``Content/metrics(_:)`` section.
    public struct Metric: Hashable, Sendable {
        /// The key: unique in the layout, used as the page's `data-metric` attribute and to
        /// keep every copy of the number in step.
        public var key: String
        /// The label shown to people.
        public var label: String
        /// How the number is computed.
        public var measure: Measure

        /// Creates a metric.
        public init(key: String, label: String, measure: Measure) {
            self.key = key
            self.label = label
            self.measure = measure
        }
    }

    /// How a metric is computed from one day's events of an app.
    public enum Measure: Hashable, Sendable {
        /// How many `event`s were sent.
        case count(event: String)
        /// The average and the maximum number of `event`s per user who sent one.
        case perUser(event: String)
        /// The average of the numeric `property` of `event`; `unit` is shown after it.
        case average(event: String, property: String, unit: String?)
        /// The share of `event`s whose `property` is missing, null or blank.
        case emptyShare(event: String, property: String)
        /// How many users sent `event`.
        case distinctUsers(event: String)
        /// `event`s and their users per value of `property`.
        case breakdown(event: String, property: String)
    }
}

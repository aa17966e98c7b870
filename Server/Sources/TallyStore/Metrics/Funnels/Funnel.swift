/// A funnel's conversion, as returned by
/// ``MetricStore/funnel(_:window:breakdown:in:)``.
///
/// The users of step k are those with a chain of events matching steps 1 through k, each
/// strictly later than the one before, the whole chain within ``window`` seconds of its
/// first event (included), and that first event on a local day from ``from`` through
/// ``to``. Encodes to JSON with the keys `from`, `to`, `tz`, `window`, `steps` (each
/// `{"event", "users", "median_seconds"}`) and, when broken down, `breakdown` (each
/// `{"value", "steps"}`) and `breakdown_property`.
public struct Funnel: Hashable, Sendable {
    /// The most steps a funnel has.
    public static let maximumSteps = 10
    /// The window of a funnel that names none: a day, in seconds.
    public static let defaultWindow = 86_400
    /// The longest funnel window: 90 days, in seconds.
    public static let maximumWindow = 90 * 86_400
    /// The most values a funnel's breakdown lists.
    public static let maximumBreakdownValues = 100

    /// One step's conversion.
    public struct Step: Hashable, Sendable {
        /// The step, in the syntax of ``FunnelStep/steps(parsing:)``.
        public var event: String
        /// Users who reached this step.
        public var users: Int
        /// Over the users who reached this step, the median of each one's shortest time from
        /// a first step's event to this step, in seconds (with milliseconds); `nil` for the
        /// first step and for a step nobody reached.
        public var medianSeconds: Double?
    }

    /// The funnel of the users with one value of the breakdown property.
    public struct Segment: Hashable, Sendable {
        /// The value, as text; `nil` for the events (or users) without one.
        public var value: String?
        /// The steps, counted as if the first step's events were only those with the value.
        public var steps: [Step]
    }

    /// The first day, as `YYYY-MM-DD`.
    public var from: String
    /// The last day (included), as `YYYY-MM-DD`.
    public var to: String
    /// The IANA identifier of the time zone whose days these are.
    public var timeZone: String
    /// The longest a chain may take from its first event, in seconds.
    public var window: Int
    /// The steps, in order.
    public var steps: [Step]
    /// The property the funnel is broken down by, if any.
    public var breakdownProperty: String?
    /// Per value of ``breakdownProperty`` on the first step's events (a user property: the
    /// user's latest value), the funnel counted from those events alone: a user whose first
    /// step's events have two values counts in both. Sorted by the first step's users, most
    /// first, then by value; at most ``Funnel/maximumBreakdownValues``.
    public var breakdown: [Segment]?
}

extension Funnel: Codable {
    enum CodingKeys: String, CodingKey {
        case from, to, window, steps, breakdown
        case timeZone = "tz"
        case breakdownProperty = "breakdown_property"
    }
}

extension Funnel.Step: Codable {
    enum CodingKeys: String, CodingKey {
        case event, users
        case medianSeconds = "median_seconds"
    }

    /// Writes `median_seconds` as `null` when there is none, so every step has the same keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(event, forKey: .event)
        try container.encode(users, forKey: .users)
        try container.encode(medianSeconds, forKey: .medianSeconds)
    }
}

extension Funnel.Segment: Codable {
    /// Writes `value` as `null` for the events (or users) without one, so every row has the same keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(value, forKey: .value)
        try container.encode(steps, forKey: .steps)
    }
}

/// Where sessions went after a step, or came from before it, as returned by
/// ``MetricStore/paths(from:kind:direction:depth:in:)``.
///
/// A session is one user's events with one `session_id` (see ``SessionHash``); events
/// without one belong to none. Of each session, the events in the range (from the start of
/// local day ``from`` to the end of ``to``) that match the filter are taken in time order,
/// and events of the same millisecond in the order of their steps' texts (code points). A
/// step is an event's name, or with ``Kind/screen`` a `screen_view`'s `screen` (the
/// session's other events left out). Level k counts the sessions by the k-th step after
/// their first ``start`` (before it, with ``Direction/before``), ``end`` (``beginning``)
/// where the session has no k-th step: every level adds up to ``sessions``.
///
/// Encodes to JSON with the keys `from`, `to`, `tz`, `start`, `kind`, `direction`,
/// `sessions` and `levels`, each level a list of `{"step", "sessions"}`.
public struct Paths: Hashable, Sendable, Codable {
    /// What a step is.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// An event's name.
        case event
        /// A `screen_view` event's `screen` property.
        case screen
    }

    /// Which way the levels go from the start.
    public enum Direction: String, Hashable, Sendable, Codable, CaseIterable {
        /// The steps after the start.
        case after
        /// The steps before the start, nearest first.
        case before
    }

    /// One step of a level and the sessions that took it there.
    public struct Step: Hashable, Sendable, Codable {
        /// The step's name or screen, or ``Paths/end``, ``Paths/beginning`` or ``Paths/other``.
        public var step: String
        /// The sessions.
        public var sessions: Int

        public init(step: String, sessions: Int) {
            (self.step, self.sessions) = (step, sessions)
        }
    }

    /// The step of sessions that have no more steps after the start.
    public static let end = "$end"
    /// The step of sessions that have no more steps before the start.
    public static let beginning = "$start"
    /// The step that adds up the sessions of a level's steps past its ``maximumStepsPerLevel``.
    public static let other = "$other"
    /// The most steps a level lists by name: the rest add up in one ``other``.
    public static let maximumStepsPerLevel = 10
    /// The most levels paths count.
    public static let maximumDepth = 5

    /// The first day, as `YYYY-MM-DD`.
    public var from: String
    /// The last day (included), as `YYYY-MM-DD`.
    public var to: String
    /// The IANA identifier of the time zone whose days these are.
    public var timeZone: String
    /// The step the paths start from.
    public var start: String
    public var kind: Kind
    public var direction: Direction
    /// The sessions with the start in the range.
    public var sessions: Int
    /// Per level, 1 to the depth, its steps by sessions, most first, then by text: the first
    /// ``maximumStepsPerLevel``, then ``other`` if any session is left.
    public var levels: [[Step]]

    /// A level's steps as ``levels`` lists them: by sessions, most first, then by text, the
    /// first ``maximumStepsPerLevel``, then ``other`` adding up the rest.
    public static func level(ranking steps: [Step]) -> [Step] {
        let ranked = steps.sorted { ($1.sessions, $0.step) < ($0.sessions, $1.step) }
        var steps = Array(ranked.prefix(maximumStepsPerLevel))
        let other = ranked.dropFirst(maximumStepsPerLevel).reduce(0) { $0 + $1.sessions }
        if other > 0 { steps.append(Step(step: Paths.other, sessions: other)) }
        return steps
    }

    enum CodingKeys: String, CodingKey {
        case from, to, start, kind, direction, sessions, levels
        case timeZone = "tz"
    }
}

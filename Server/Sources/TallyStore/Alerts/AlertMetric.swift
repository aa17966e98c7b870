/// What an alert rule watches: one number per local day of the app.
///
/// Its text form, in the dashboard file and the `alert_rule` table:
/// - `dau`, `wau`, `mau`, `new_users`, `events`: the headlines of ``DayMetrics`` (`events`
///   counts every event of the day);
/// - `event:NAME`: the day's count of the event `NAME`;
/// - `funnel:STEP,STEP,…`: the conversion, in percent, of the funnel of those steps (as
///   `steps=` of `/v1/funnels`, a window of one day) started on the day: the users of the
///   last step over those of the first, 0 when nobody started;
/// - `segment:NAME`: the day's active users of the app's saved segment `NAME`.
public enum AlertMetric: Hashable, Sendable, CustomStringConvertible {
    /// A headline of the day.
    case headline(Headline)
    /// The day's count of one event.
    case event(String)
    /// The conversion of a funnel, in percent.
    case funnel([FunnelStep])
    /// The active users of a saved segment.
    case segment(String)

    /// A headline figure of ``DayMetrics``.
    public enum Headline: String, Hashable, Sendable, CaseIterable {
        case dau, wau, mau
        case newUsers = "new_users"
        case events
    }

    /// The longest text a metric has.
    public static let maximumLength = 1_024

    /// Parses the text form.
    ///
    /// - Throws: ``TallyStoreError/invalidAlertRule(_:)`` naming what is wrong.
    public init(parsing text: String) throws(TallyStoreError) {
        guard text.utf8.count <= Self.maximumLength else { throw .invalidAlertRule("the metric is longer than \(Self.maximumLength) bytes") }
        if let headline = Headline(rawValue: text) {
            self = .headline(headline)
            return
        }
        guard let colon = text.firstIndex(of: ":") else {
            throw .invalidAlertRule(
                "unknown metric \"\(text.prefix(64))\": expected dau, wau, mau, new_users, events, event:NAME, funnel:A,B or segment:NAME")
        }
        let (kind, argument) = (text[..<colon], String(text[text.index(after: colon)...]))
        guard !argument.isEmpty else { throw .invalidAlertRule("the metric \"\(kind):\" names nothing") }
        switch kind {
        case "event":
            self = .event(argument)
        case "segment":
            self = .segment(argument)
        case "funnel":
            let steps: [FunnelStep]
            do {
                steps = try FunnelStep.steps(parsing: argument)
            } catch {
                throw .invalidAlertRule("the funnel's steps: \(error.description)")
            }
            if let problem = FunnelStep.problem(with: steps) { throw .invalidAlertRule(problem) }
            self = .funnel(steps)
        default:
            throw .invalidAlertRule("unknown metric kind \"\(kind.prefix(64))\": expected event, funnel or segment")
        }
    }

    /// The text form, which ``init(parsing:)`` reads back.
    public var description: String {
        switch self {
        case .headline(let headline): headline.rawValue
        case .event(let name): "event:\(name)"
        case .funnel(let steps): "funnel:\(steps.map(\.description).joined(separator: ","))"
        case .segment(let name): "segment:\(name)"
        }
    }
}

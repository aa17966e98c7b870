public import Foundation

/// One evaluation of one rule: the value its metric had and whether the rule fired.
///
/// Recorded once per app, rule and evaluation time (``AlertStore/record(_:app:delivery:)``),
/// however many collectors evaluate; kept ``AlertStore/alertRetention`` seconds.
public struct AlertEvaluation: Hashable, Sendable {
    /// The rule's name.
    public var rule: String
    /// The evaluation time (see ``AlertSchedule``).
    public var at: Date
    /// The local day evaluated, `YYYY-MM-DD`.
    public var day: String
    /// Whether `day` had ended (``AlertSchedule/Slot/endsDay``).
    public var endsDay: Bool
    /// The metric's text form.
    public var metric: String
    /// The condition's text form.
    public var condition: String
    /// The metric's value on `day` (so far, when it had not ended).
    public var value: Double
    /// Its value on the same weekday a week earlier, for a `change` condition.
    public var previous: Double?
    /// Whether the condition held.
    public var fired: Bool

    /// Creates an evaluation.
    public init(
        rule: String, at: Date, day: String, endsDay: Bool, metric: String, condition: String, value: Double, previous: Double?, fired: Bool
    ) {
        self.rule = rule
        self.at = at
        self.day = day
        self.endsDay = endsDay
        self.metric = metric
        self.condition = condition
        self.value = value
        self.previous = previous
        self.fired = fired
    }
}

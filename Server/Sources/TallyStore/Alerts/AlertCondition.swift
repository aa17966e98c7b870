import Foundation

/// When an alert rule fires, given the value of its metric on a day.
///
/// Text form: `above X`, `below X`, or `change N%` (the value moved by more than N percent,
/// up or down, against the same weekday a week earlier).
public enum AlertCondition: Hashable, Sendable, CustomStringConvertible {
    /// The value is greater than the threshold.
    case above(Double)
    /// The value is less than the threshold.
    case below(Double)
    /// The value differs from the same weekday's a week earlier by more than this many percent
    /// of it. Against 0, any value but 0 is a change of more than any percent.
    case change(percent: Double)

    /// Parses the text form.
    ///
    /// - Throws: ``TallyStoreError/invalidAlertRule(_:)`` naming what is wrong.
    public init(parsing text: String) throws(TallyStoreError) {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count == 2 else {
            throw .invalidAlertRule("the condition \"\(text.prefix(64))\" is not \"above X\", \"below X\" or \"change N%\"")
        }
        var number = words[1]
        if words[0] == "change" {
            guard number.hasSuffix("%") else { throw .invalidAlertRule("a change is in percent: \"change N%\"") }
            number = number.dropLast()
        }
        guard let value = Double(number), value.isFinite else {
            throw .invalidAlertRule("\"\(words[1].prefix(32))\" is not a finite number")
        }
        switch words[0] {
        case "above": self = .above(value)
        case "below": self = .below(value)
        case "change" where value >= 0: self = .change(percent: value)
        case "change": throw .invalidAlertRule("a change's percent is not negative")
        default: throw .invalidAlertRule("unknown condition \"\(words[0].prefix(32))\": expected above, below or change")
        }
    }

    /// The text form, which ``init(parsing:)`` reads back.
    public var description: String {
        switch self {
        case .above(let value): "above \(Self.format(value))"
        case .below(let value): "below \(Self.format(value))"
        case .change(let percent): "change \(Self.format(percent))%"
        }
    }

    /// Whether the condition needs the value of the same weekday a week earlier.
    public var comparesWithLastWeek: Bool {
        if case .change = self { true } else { false }
    }

    /// Whether a day whose value is `value`, and whose same weekday a week earlier had
    /// `previous` (needed by ``change(percent:)`` only), makes the rule fire.
    public func holds(for value: Double, previous: Double?) -> Bool {
        switch self {
        case .above(let threshold): return value > threshold
        case .below(let threshold): return value < threshold
        case .change(let percent):
            guard let previous else { return false }
            if previous == 0 { return value != 0 }
            return abs(value - previous) / abs(previous) * 100 > percent
        }
    }

    /// `value` without a fraction when it has none.
    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

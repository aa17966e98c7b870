import TallyEvent

/// One step of a funnel: an event name, and optionally conditions its events must meet.
///
/// Conditions take the form of a ``SegmentFilter``: on `app_version`, `platform`, the app's
/// segment properties, and `screen`, a `screen_view`'s screen. Written `NAME` or
/// `NAME[CONDITIONS]` with the filter syntax inside the brackets (``init(parsing:)``):
///
/// ```swift
/// let steps = try FunnelStep.steps(parsing: "app_open,screen_view[screen==Checkout],purchase")
/// let same: [FunnelStep] = ["app_open", FunnelStep("screen_view", [.is("screen", "Checkout")]), "purchase"]
/// ```
public struct FunnelStep: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The event name.
    public var event: String
    /// What the step's events must meet beside their name; empty for none.
    public var conditions: SegmentFilter

    /// A step of events named `event` meeting `conditions`.
    public init(_ event: String, _ conditions: [SegmentFilter.Condition] = []) {
        self.event = event
        self.conditions = SegmentFilter(conditions)
    }

    /// A step of events named `value`, without conditions.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// Why `steps` are not a funnel, or `nil` when they are: 2 to ``Funnel/maximumSteps``
    /// steps, each naming an event as events may be named (``Event/isValidName(_:)``). The one
    /// check of a funnel's steps, wherever they come from (a route, the dashboard file, an
    /// alert rule, the store).
    public static func problem(with steps: [FunnelStep]) -> String? {
        guard (2...Funnel.maximumSteps).contains(steps.count) else {
            return "a funnel has 2 to \(Funnel.maximumSteps) steps, not \(steps.count)"
        }
        if let index = steps.firstIndex(where: { !Event.isValidName($0.event) }) {
            return "step \(index + 1) must name an event of 1 to \(Event.maximumNameLength) characters without NUL"
        }
        return nil
    }

    /// The step in the syntax ``steps(parsing:)`` reads.
    public var description: String {
        var text = ""
        for character in event {
            if ",[]\\".contains(character) { text.append("\\") }
            text.append(character)
        }
        return conditions.isEmpty ? text : "\(text)[\(conditions.description.replacing("]", with: "\\]"))]"
    }

    /// Reads steps separated by `,`, each `NAME` or `NAME[CONDITIONS]`, where `\` escapes a
    /// `,`, `[`, `]` or `\` of the name and `CONDITIONS` is a ``SegmentFilter`` (whose `]`
    /// must be escaped as `\]`).
    ///
    /// - Throws: ``SegmentFilter/ParseError`` naming the step that cannot be read.
    public static func steps(parsing text: String) throws(SegmentFilter.ParseError) -> [FunnelStep] {
        enum Part { case name, conditions, closed }
        var steps: [FunnelStep] = []
        var (name, conditions, raw, part) = ("", "", "", Part.name)
        func finish() throws(SegmentFilter.ParseError) {
            guard !name.isEmpty else { throw SegmentFilter.ParseError(part: raw, reason: "a step needs an event name") }
            guard part != .conditions else { throw SegmentFilter.ParseError(part: raw, reason: "[ without ]") }
            steps.append(FunnelStep(name, try SegmentFilter(parsing: conditions).conditions))
            (name, conditions, raw, part) = ("", "", "", .name)
        }
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            if character == "," && part != .conditions {
                try finish()
                continue
            }
            raw.append(character)
            switch (part, character) {
            case (.closed, _):
                throw SegmentFilter.ParseError(part: raw, reason: "expected , after ]")
            case (_, "\\"):
                guard let escaped = characters.popFirst(), part == .conditions || ",[]\\".contains(escaped) else {
                    throw SegmentFilter.ParseError(part: raw, reason: "\\ must precede ,, [, ] or \\ in an event name")
                }
                raw.append(escaped)
                // The filter reads its own escapes; only `\]` is the step's.
                if part == .conditions { conditions += escaped == "]" ? "]" : "\\\(escaped)" } else { name.append(escaped) }
            case (.name, "["): part = .conditions
            case (.conditions, "]"): part = .closed
            case (.name, _): name.append(character)
            case (.conditions, _): conditions.append(character)
            }
        }
        try finish()
        return steps
    }
}

import TallyEvent

/// Conditions that narrow every metric to a segment of an app's events and users, ANDed.
///
/// Each condition names a dimension: `app_version`, `platform`, or one of the app's
/// ``SegmentProperties``. On `app_version`, `platform` and an event property, it matches
/// events; on a user property, every event of a user whose latest value it matches. A metric
/// under a filter counts only matching events, and users only through them: a user is in a
/// day's active users under `app_version == 3.3.0` when they sent an event of that version
/// that day. Several conditions must hold for one event, as a SQL `WHERE … AND …` does.
///
/// Written in the syntax of Plausible's Stats API v1 (``init(parsing:)``, ``description``):
///
/// ```swift
/// let filter = try SegmentFilter(parsing: "app_version==3.3.0|3.2.0;platform!=Android;plan==pro")
/// let same = SegmentFilter([.is("app_version", "3.3.0", "3.2.0"), .isNot("platform", "Android"), .is("plan", "pro")])
/// ```
public struct SegmentFilter: Hashable, Sendable, CustomStringConvertible {
    /// One condition: a dimension and the values it must (or must not) have.
    public struct Condition: Hashable, Sendable {
        /// `app_version`, `platform`, or a segment property.
        public var property: String
        /// Whether the condition matches the values other than ``values`` (`!=`).
        public var isNegated: Bool
        /// The values, as text; `==` matches any of them, `!=` none of them.
        public var values: [String]

        /// A condition on `property`: equal to one of `values`, or to none of them when `isNegated`.
        public init(property: String, isNegated: Bool, values: [String]) {
            self.property = property
            self.isNegated = isNegated
            self.values = values
        }

        /// A condition matching `property` equal to one of `values` (`==`).
        public static func `is`(_ property: String, _ values: String...) -> Condition {
            Condition(property: property, isNegated: false, values: values)
        }

        /// A condition matching `property` equal to none of `values`, or absent (`!=`).
        public static func isNot(_ property: String, _ values: String...) -> Condition {
            Condition(property: property, isNegated: true, values: values)
        }

        /// Whether `value` (`nil`: the event has no value) satisfies the condition.
        func matches(_ value: String?) -> Bool {
            guard let value else { return isNegated }
            return values.contains(value) != isNegated
        }
    }

    /// Whether `event` meets every condition, given the app's segment `properties` and its
    /// user's values of the user properties (`userValues`): what a filtered metric counts,
    /// decided from the raw event.
    ///
    /// - Throws: ``TallyStoreError/unknownFilterProperty(_:)`` for a condition on a name that
    ///   is neither built in nor one of `properties`.
    func matches(_ event: Event, userValues: [String: String], properties: SegmentProperties) throws(TallyStoreError) -> Bool {
        for condition in conditions {
            let value: String? =
                switch condition.property {
                case let name where SegmentProperties.builtIn.contains(name) || properties.event.contains(name): event.segmentValue(of: name)
                case let name where properties.user.contains(name): userValues[name]
                case let name: throw .unknownFilterProperty(name)
                }
            guard condition.matches(value) else { return false }
        }
        return true
    }

    /// The most conditions a filter holds.
    public static let maximumConditions = 16
    /// The most values one condition lists.
    public static let maximumValues = 64

    /// The conditions, all of which must hold.
    public var conditions: [Condition]

    /// A filter of `conditions`; none matches everything.
    public init(_ conditions: [Condition] = []) {
        self.conditions = conditions
    }

    /// Whether the filter has no condition, and so matches everything.
    public var isEmpty: Bool { conditions.isEmpty }

    /// The filter in the syntax ``init(parsing:)`` reads, `|`, `;` and `\` in names and
    /// values escaped with `\`.
    public var description: String {
        func escaped(_ text: String) -> String {
            var result = ""
            for character in text {
                if character == "|" || character == ";" || character == "\\" || character == "=" || character == "!" {
                    result.append("\\")
                }
                result.append(character)
            }
            return result
        }
        return conditions.map { condition in
            escaped(condition.property) + (condition.isNegated ? "!=" : "==") + condition.values.map(escaped).joined(separator: "|")
        }.joined(separator: ";")
    }
}

extension SegmentFilter {
    /// A filter that cannot be read, with what is wrong with it.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The part of the filter that is wrong.
        public var part: String
        /// Why.
        public var reason: String

        public var description: String { "Invalid filter \"\(part)\": \(reason)." }
    }

    /// Reads a filter in the syntax of Plausible's Stats API v1: conditions separated by `;`,
    /// each `NAME==VALUE|VALUE…` (one of the values) or `NAME!=VALUE|VALUE…` (none of them),
    /// with `\` escaping a `|`, `;`, `\`, `=` or `!` that belongs to a name or value. An
    /// empty text is the empty filter.
    ///
    /// - Throws: ``ParseError`` naming the first condition that is not of that form, has an
    ///   empty name, an unknown escape, or passes ``maximumConditions`` or ``maximumValues``.
    public init(parsing text: String) throws(ParseError) {
        self.init()
        guard !text.isEmpty else { return }
        // Tokens: a condition is a name, an operator, then values; `\` escapes the next character.
        var condition: (name: String, isNegated: Bool?, values: [String]) = ("", nil, [])
        var current = ""
        var raw = ""
        var characters = Array(text)[...]
        func finish() throws(ParseError) {
            guard let isNegated = condition.isNegated else {
                throw ParseError(part: raw, reason: "expected NAME==VALUE or NAME!=VALUE")
            }
            guard !condition.name.isEmpty else { throw ParseError(part: raw, reason: "the name is empty") }
            condition.values.append(current)
            guard condition.values.count <= Self.maximumValues else {
                throw ParseError(part: raw, reason: "more than \(Self.maximumValues) values")
            }
            conditions.append(Condition(property: condition.name, isNegated: isNegated, values: condition.values))
            guard conditions.count <= Self.maximumConditions else {
                throw ParseError(part: raw, reason: "more than \(Self.maximumConditions) conditions")
            }
            (condition, current, raw) = (("", nil, []), "", "")
        }
        while let character = characters.popFirst() {
            switch character {
            case "\\":
                raw.append(character)
                guard let escaped = characters.popFirst(), "|;\\=!".contains(escaped) else {
                    throw ParseError(part: raw + String(characters.prefix(20)), reason: "\\ must precede |, ;, \\, = or !")
                }
                raw.append(escaped)
                current.append(escaped)
            case "=" where condition.isNegated == nil && characters.first == "=",
                "!" where condition.isNegated == nil && characters.first == "=":
                characters.removeFirst()
                raw += character == "=" ? "==" : "!="
                condition.name = current
                condition.isNegated = character == "!"
                current = ""
            case "|" where condition.isNegated != nil:
                raw.append(character)
                condition.values.append(current)
                current = ""
            case ";":
                try finish()
            default:
                raw.append(character)
                current.append(character)
            }
        }
        try finish()
    }
}

extension Event {
    /// The event's own value of the filter dimension `property`, as segments compare it: its
    /// `app_version`, its `platform`, or its property of that name.
    func segmentValue(of property: String) -> String? {
        switch property {
        case "app_version": appVersion
        case "platform": platform
        case let name: properties[name]?.segmentText
        }
    }
}

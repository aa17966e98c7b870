@_spi(Wire) public import TallyEvent

/// The properties an app's segments and funnels can filter and break down by, beside the
/// built-in `app_version` and `platform`: named in the app's settings
/// (``AppStore/update(_:timeZone:acceptedEventAge:segmentProperties:)``).
///
/// - An **event property** matches an event by the event's own value of it.
/// - A **user property** matches every event of a user by the user's latest value of it: set
///   by an `identify` event's properties (Tally's SDK and Segment's `identify`), or by an
///   event's `$set` (PostHog; the latest by event time wins) or `$set_once` (kept only while
///   no `$set` gave a value; the earliest wins).
///
/// Values are compared as text: strings as they are, numbers as JSON writes them, booleans as
/// `true` and `false`. An event without the property has no value: `!=` matches it, `==` never.
public struct SegmentProperties: Hashable, Sendable, Codable {
    /// Event properties, at most ``maximumEventProperties``.
    public var event: [String]
    /// User properties, at most ``maximumUserProperties``.
    public var user: [String]

    /// The most event properties an app names: each multiplies the value combinations the
    /// store keeps per day.
    public static let maximumEventProperties = 4
    /// The most user properties an app names.
    public static let maximumUserProperties = 8
    /// The built-in dimensions every filter may name.
    public static let builtIn = ["app_version", "platform"]

    /// Properties named `event` and `user`.
    public init(event: [String] = [], user: [String] = []) {
        self.event = event
        self.user = user
    }

    /// Every name a filter may use: the built-in dimensions, then ``event``, then ``user``.
    public var filterNames: [String] { Self.builtIn + event + user }

    /// Throws unless every name is a valid property name (see `Event.isValidName`), none is
    /// named twice or shadows a built-in dimension, and the lists keep to their maximums.
    func validate() throws(TallyStoreError) {
        let names = event + user
        guard event.count <= Self.maximumEventProperties, user.count <= Self.maximumUserProperties,
            Set(names).count == names.count, names.allSatisfy({ Event.isValidName($0) && !Self.builtIn.contains($0) })
        else { throw .invalidSegmentProperties(self) }
    }
}

extension PropertyValue {
    /// The value as segments compare it: a string as it is, a number as ``Breakdown`` writes it,
    /// `true` or `false`; `nil` for null and for numbers JSON cannot hold.
    public var segmentText: String? {
        switch self {
        case .string(let text): text
        case .int(let number): String(number)
        case .double(let number): number.isFinite ? String(number) : nil
        case .bool(let flag): flag ? "true" : "false"
        case .null: nil
        }
    }
}

extension SegmentProperties {
    /// The stored form, the apps' `segment_properties` column.
    var json: String {
        var writer = JSONWriter()
        writer.object(["event": .string(event.joined(separator: "\u{0}")), "user": .string(user.joined(separator: "\u{0}"))])
        return writer.text
    }

    /// Reads the stored form; empty lists if it does not decode (the store writes it itself).
    init(json: String) {
        self.init()
        guard let values = PropertyValue.properties(json: Array(json.utf8)) else { return }
        func names(_ key: String) -> [String] {
            guard case .string(let text)? = values[key], !text.isEmpty else { return [] }
            return text.split(separator: "\u{0}", omittingEmptySubsequences: false).map(String.init)
        }
        (event, user) = (names("event"), names("user"))
    }
}

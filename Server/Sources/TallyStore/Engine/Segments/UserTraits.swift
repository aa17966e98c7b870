@_spi(Wire) import TallyEvent

/// The user property values an event sets (see ``SegmentProperties/user``), each with its
/// rank: of a user's values for one property, the one of highest rank is the user's, ties
/// going to the greater text, so the outcome does not depend on the order events arrive in.
///
/// - An `identify` event's properties, and the members of an event's `$set` object (PostHog
///   stores it as JSON text), rank by the event's time: the latest wins.
/// - The members of `$set_once` rank below any `$set`, the earliest first.
enum UserTraits {
    /// One value an event sets.
    struct Assignment: Equatable {
        /// The property's index in ``SegmentProperties/user``.
        var property: Int
        var value: String
        var rank: Int64
    }

    /// The values `event`, at `timestamp` milliseconds since 1970, sets among `properties`.
    static func assignments(of event: Event, timestamp: Int64, properties: [String]) -> [Assignment] {
        let (set, setOnce) = (event.properties["$set"], event.properties["$set_once"])
        // Most events assign nothing: they return before anything is allocated.
        guard !properties.isEmpty, event.name == "identify" || set != nil || setOnce != nil else { return [] }
        let time = max(timestamp, 0)
        var assignments: [Assignment] = []
        func assign(_ values: [String: PropertyValue], rank: Int64) {
            for (index, property) in properties.enumerated() {
                if let value = values[property]?.segmentText { assignments.append(Assignment(property: index, value: value, rank: rank)) }
            }
        }
        if event.name == "identify" { assign(event.properties, rank: time) }
        if case .string(let json)? = set, let values = objectMembers(json) { assign(values, rank: time) }
        if case .string(let json)? = setOnce, let values = objectMembers(json) { assign(values, rank: -1 - time) }
        return assignments
    }

    /// The scalar members of the JSON object `json`, or `nil` if it is not an object.
    private static func objectMembers(_ json: String) -> [String: PropertyValue]? {
        guard case .object(let object)? = try? JSONParser.parse(Array(json.utf8)) else { return nil }
        var values: [String: PropertyValue] = [:]
        for member in object.members {
            if let value = PropertyValue(member.value) { values[member.key] = value }
        }
        return values
    }
}

/// How often a property is left empty, as returned by
/// ``EventStore/emptyPropertyShare(app:event:property:date:timeZone:)``.
public struct EmptyShare: Hashable, Sendable, Codable {
    /// Events of the name on the day.
    public var events: Int
    /// Of ``events``, those whose property is missing, `null`, or a string of only white space
    /// (Unicode `White_Space` characters; the empty string included).
    public var empty: Int

    /// `empty / events`, `nil` when there are no events.
    public var share: Double? { events == 0 ? nil : Double(empty) / Double(events) }
}

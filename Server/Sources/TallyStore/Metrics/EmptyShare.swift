/// How often a property is left empty, as returned by
/// ``MetricStore/emptyShare(of:event:in:)``.
public struct EmptyShare: Hashable, Sendable, Codable {
    /// Events of the name on the day.
    public var events: Int
    /// Of ``events``, those whose property is missing, `null`, or a string of only white space
    /// (Unicode `White_Space` characters; the empty string included).
    public var empty: Int

    /// `empty / events`, `nil` when there are no events.
    public var share: Double? { events == 0 ? nil : Double(empty) / Double(events) }

    /// Every Unicode `White_Space` character, for the databases' trim functions.
    static let whiteSpace =
        "\u{09}\u{0A}\u{0B}\u{0C}\u{0D}\u{20}\u{85}\u{A0}\u{1680}\u{2000}\u{2001}\u{2002}\u{2003}\u{2004}\u{2005}\u{2006}"
        + "\u{2007}\u{2008}\u{2009}\u{200A}\u{2028}\u{2029}\u{202F}\u{205F}\u{3000}"
}

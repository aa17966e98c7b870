public import Foundation

/// The events of one name by the value of one property, as returned by
/// ``MetricStore/breakdown(event:by:limit:in:)``.
///
/// Values are compared as text: a string as it is, a number as the store writes it (an
/// integer below 2^53 in magnitude without a fraction, as `3`, any other in its shortest
/// exact form, as `2.5` or `1e+20`), a boolean as `true` or `false`. So the string `"3"`
/// and the number `3` are one value.
///
/// Encodes to JSON with the keys `top` (objects with `value`, `events` and `users`),
/// `other_values`, `other_events`, `other_users`, `missing`, and `raw_events_kept_since` when
/// the app no longer keeps the raw events of the scope's start.
public struct Breakdown: Hashable, Sendable, Codable {
    /// The most values a breakdown lists.
    public static let maximumLimit = 1_000

    /// One property value with its events and users.
    public struct Entry: Hashable, Sendable, Codable {
        /// The value, as text.
        public var value: String
        /// Events with this value.
        public var events: Int
        /// Distinct users who sent an event with this value.
        public var users: Int
    }

    /// The most frequent values: sorted by events, most first, then by value; at most the
    /// requested limit.
    public var top: [Entry]
    /// How many values are not in ``top``.
    public var otherValues: Int
    /// Events whose value is not in ``top``.
    public var otherEvents: Int
    /// Distinct users who sent an event whose value is not in ``top``.
    public var otherUsers: Int
    /// Events without the property, or with `null`.
    public var missing: Int
    /// The first instant of the app's kept raw events, when the day starts before it: the
    /// counts cover only the day's events from it on (see ``App/rawEventsKeptSince``).
    public var rawEventsKeptSince: Date? = nil

    /// The JSON keys of the metrics API.
    enum CodingKeys: String, CodingKey {
        case top, missing
        case rawEventsKeptSince = "raw_events_kept_since"
        case otherValues = "other_values"
        case otherEvents = "other_events"
        case otherUsers = "other_users"
    }
}

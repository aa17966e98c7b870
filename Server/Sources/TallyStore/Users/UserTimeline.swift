public import Foundation
public import TallyEvent

/// One user's events, newest first, a page at a time, and what the store knows of the user:
/// the answer of ``UserStore/timeline(app:user:before:limit:filter:)``.
public struct UserTimeline: Equatable, Sendable {
    /// The user and when their first event came.
    public var user: AppUser
    /// The app version and platform of the user's newest event; `nil` when none is kept.
    public var appVersion: String?
    public var platform: String?
    /// The user's latest value of each of the app's user segment properties that has one.
    public var properties: [String: String]
    /// The page's events, newest first: by timestamp, then by the order they were stored.
    public var events: [Event]
    /// Where the next page starts, for `before`; `nil` after the user's oldest event.
    public var next: Cursor?
    /// The first instant of the app's kept raw events when the user was seen before it: the
    /// user's events before it are no longer kept (see ``App/rawEventsKeptSince``), and the
    /// timeline ends there. `nil` when all of the user's events are kept.
    public var rawEventsKeptSince: Date?

    /// A place in a user's timeline: the page after it starts with the event stored just
    /// before. Written as `TIMESTAMP.SEQUENCE` (milliseconds since 1970, and the event's
    /// place in storage order), as the API passes it.
    public struct Cursor: Hashable, Sendable, LosslessStringConvertible {
        let timestamp: Int64
        let sequence: Int64

        init(_ cursor: EventCursor) {
            (timestamp, sequence) = (cursor.timestamp, cursor.sequence)
        }

        /// The cursor `description` wrote, or `nil` if `description` is not one.
        public init?(_ description: String) {
            let parts = description.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, let timestamp = Int64(parts[0]), let sequence = Int64(parts[1]) else { return nil }
            (self.timestamp, self.sequence) = (timestamp, sequence)
        }

        public var description: String { "\(timestamp).\(sequence)" }

        var eventCursor: EventCursor { EventCursor(timestamp: timestamp, sequence: sequence) }
    }
}

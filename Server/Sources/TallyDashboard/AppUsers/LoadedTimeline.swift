import Foundation
import TallyEvent
import TallyStore

/// One user's timeline as the user sheet has read it so far: what the store knows of the user
/// and their newest events, a page at a time, up to ``maximumEvents``.
struct LoadedTimeline: Hashable, Sendable {
    /// The most events a page keeps of one user: "Older events" reads no further.
    static let maximumEvents = 1_000
    /// The events one read asks for.
    static let pageSize = 100

    /// The user and when their first event came.
    var user: AppUser
    /// The app version and platform of the user's newest event, if known.
    var appVersion: String?
    var platform: String?
    /// The user's values of the app's user segment properties.
    var properties: [String: String]
    /// The events read, newest first.
    var events: [Event]
    /// Where the next read starts; `nil` once the user's oldest event is read.
    var next: UserTimeline.Cursor?
    /// The first instant of the app's kept raw events when the user was seen before it: the
    /// user's earlier events are no longer kept.
    var rawEventsKeptSince: Date?
    /// Why the last read of older events failed, if it did: the events read stay, and the
    /// next read may succeed.
    var failure: String?

    /// The timeline of the store's first page.
    init(_ page: UserTimeline) {
        user = page.user
        appVersion = page.appVersion
        platform = page.platform
        properties = page.properties
        events = Array(page.events.prefix(Self.maximumEvents))
        next = page.next
        rawEventsKeptSince = page.rawEventsKeptSince
    }

    /// Whether older events may be read: there are more, and the bound is not reached.
    var canReadOlder: Bool { next != nil && events.count < Self.maximumEvents }

    /// Whether the bound stopped the reading while the user has older events.
    var isAtBound: Bool { next != nil && events.count >= Self.maximumEvents }

    /// How many events the next read asks for.
    var nextReadSize: Int { max(0, min(Self.pageSize, Self.maximumEvents - events.count)) }

    /// Adds the store's next page, `page`, read from ``next``: its events after those read,
    /// within ``maximumEvents``, and where to go on from.
    mutating func append(_ page: UserTimeline) {
        events += page.events.prefix(max(0, Self.maximumEvents - events.count))
        next = page.next
        rawEventsKeptSince = page.rawEventsKeptSince
    }
}

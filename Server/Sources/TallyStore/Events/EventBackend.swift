import Foundation
import TallyEvent

/// A backend's raw events: storing them with their rollups, the data health, and reading them back.
protocol EventBackend: Sendable {
    /// Stores events and their rollups durably, as ``EventLog/insert(_:app:)`` documents.
    func insert(_ events: [Event], app: AppID) async throws -> InsertResult

    /// The commits of the other processes that store events in the same database.
    func remoteCommits() -> AsyncStream<EventsCommitted>

    /// Adds data health counts to those the next ingest transaction writes, without waiting.
    func record(_ counts: HealthCounts)

    /// Waits until every count passed to ``record(_:)`` before the call is written; throws
    /// ``TallyStoreError/unknownApp(_:)`` if `app`, the app about to be read, is unknown.
    func flushHealthCounts(app: AppID) async throws

    /// The ingest outcome counts of `app` over `buckets`, summed per outcome and reason.
    func healthCounts(app: AppID, in buckets: Range<Int64>) async throws -> [(outcome: HealthCounts.Outcome, reason: String, count: Int)]

    /// The numbers (`app_user.number`) of those of `users` that `app` has.
    func userNumbers(app: AppID, users: [String]) async throws -> [String: UInt32]

    /// The user `user` of `app`, their number (`app_user.number`), and the last UTC day with
    /// an event of the app (`day_users`); `nil` if the app has no such user.
    func appUser(app: AppID, id user: String) async throws -> (user: AppUser, number: UInt32, lastDay: Int64)?

    /// Up to `limit` of the app's users whose ids start with `prefix`, in code point order.
    func appUsers(app: AppID, prefix: String, limit: Int) async throws -> [AppUser]

    /// The events of `user` at the milliseconds `timestamps`, each with its cursor, in no order.
    func userEvents(app: AppID, user: String, at timestamps: [Int64]) async throws -> [(event: Event, cursor: EventCursor)]

    /// The user's value of each of `properties` (user segment properties) that has one.
    func userTraits(app: AppID, number: UInt32, properties: [String]) async throws -> [String: String]

    /// The app's `limit` latest events, newest first; throws ``TallyStoreError/unknownApp(_:)``.
    func latestEvents(app: AppID, limit: Int) async throws -> [Event]

    /// Up to `limit` events of `app` with a timestamp in `range`, in storage order after
    /// `cursor` (`nil`: from the start), and the cursor of the last one.
    func events(app: AppID, in range: Range<Int64>, after cursor: EventCursor?, limit: Int) async throws -> (events: [Event], last: EventCursor?)

    /// Writes up to `limit` events of `app` with a timestamp in `range` after `cursor` in
    /// `format`; returns the bytes, how many events, and the cursor of the last one.
    func exportPage(
        app: AppID, in range: Range<Int64>, after cursor: EventCursor?, limit: Int, format: ExportFormat
    ) async throws -> (bytes: [UInt8], count: Int, last: EventCursor?)
}

/// Where a read of raw events stopped: the timestamp and the storage order of the last event.
struct EventCursor: Sendable, Equatable {
    var timestamp: Int64
    var sequence: Int64
}

import TallyEvent
import Foundation

/// The operations a database behind ``EventStore`` performs: SQLite (``SQLiteBackend``) or
/// PostgreSQL.
///
/// ``EventStore`` validates input, generates secrets and computes metrics (through
/// ``RollupReader``, over the rows a backend reads), so each backend holds only what differs
/// between databases: its SQL, its transactions and its group commit. Arguments reach a
/// backend validated; a backend throws ``TallyStoreError`` only for what needs the database
/// to know (an unknown app or user, a taken name).
protocol StoreBackend: Sendable {
    // MARK: Apps

    /// Stores a new app with the hashes of its secrets and returns its id.
    func insertApp(
        name: String, timeZone: String, acceptedEventAge: TimeInterval, ingestKeyHash: Data, readTokenHash: Data, createdAt: Int64
    ) async throws -> AppID

    /// The app with this id, or `nil`.
    func app(id: AppID) async throws -> App?

    /// The app whose `secret` hashes to `hash`, or `nil`.
    func app(_ secret: AppSecret, hash: Data) async throws -> App?

    /// All apps, by id.
    func apps() async throws -> [App]

    /// Sets the non-`nil` settings of app `id` and returns it; throws ``TallyStoreError/unknownApp(_:)``.
    func updateApp(_ id: AppID, timeZone: String?, acceptedEventAge: TimeInterval?) async throws -> App

    /// Replaces the hashes of app `id`'s secrets and returns it; throws ``TallyStoreError/unknownApp(_:)``.
    func replaceKeys(_ id: AppID, ingestKeyHash: Data, readTokenHash: Data) async throws -> App

    // MARK: Events

    /// Stores events and their rollups durably, as ``EventStore/insert(_:app:)`` documents.
    func insert(_ events: [Event], app: AppID) async throws -> InsertResult

    /// The events other processes store in the same database, as they commit.
    func ingestNotices() -> AsyncStream<IngestNotice>

    /// Adds data health counts to those the next ingest transaction writes, without waiting.
    func record(_ counts: HealthCounts)

    /// Waits until every count passed to ``record(_:)`` before the call is written; throws
    /// ``TallyStoreError/unknownApp(_:)`` if `app`, the app about to be read, is unknown.
    func flushHealthCounts(app: AppID) async throws

    /// The ingest outcome counts of `app` over `buckets`, summed per outcome and reason.
    func healthCounts(app: AppID, in buckets: Range<Int64>) async throws -> [(outcome: HealthCounts.Outcome, reason: String, count: Int)]

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

    // MARK: Metrics

    /// Runs `body` over the rollups of `app` in one consistent read, with the app; throws
    /// ``TallyStoreError/unknownApp(_:)``.
    ///
    /// - Parameters:
    ///   - needs: The rows `body` reads, given the app: a backend that cannot read rows while
    ///     `body` runs fetches them first; reading others throws ``RollupNeeds/Unfetched``.
    ///   - body: The computation.
    func readRollups<T: Sendable>(
        app: AppID, needs: @escaping @Sendable (App) throws -> RollupNeeds, body: @escaping @Sendable (RollupReader, App) throws -> T
    ) async throws -> T

    /// The numeric values of `property` on `app`'s events named `event` in `milliseconds`:
    /// their count, sum and maximum.
    func numericProperty(
        app: AppID, event: String, property: String, in milliseconds: Range<Int64>
    ) async throws -> (count: Int, sum: Double, maximum: Double?)

    /// How many of `app`'s events named `event` in `milliseconds` there are, and how many leave
    /// `property` empty (absent, `null`, or only white space).
    func emptyProperty(app: AppID, event: String, property: String, in milliseconds: Range<Int64>) async throws -> EmptyShare

    /// The values of `property` on `app`'s events named `event` in `milliseconds`, as text
    /// (see ``Breakdown``; `nil` when absent or not a scalar), per user, with the events that have it.
    func propertyValues(
        app: AppID, event: String, property: String, in milliseconds: Range<Int64>
    ) async throws -> [(value: String?, user: String, events: Int)]

    // MARK: Dashboard accounts

    /// Stores a new dashboard user; throws ``TallyStoreError/userNameTaken(_:)``.
    func insertUser(name: String, passwordHash: String, createdAt: Int64) async throws -> DashboardUser

    /// The user named `name` with its password hash, or `nil`.
    func user(named name: String) async throws -> (user: DashboardUser, passwordHash: String)?

    /// All dashboard users, by id.
    func users() async throws -> [DashboardUser]

    /// Stores a session and keeps the user's latest-expiring `keeping`; throws ``TallyStoreError/unknownUser(_:)``.
    func insertSession(
        user: DashboardUserID, tokenHash: Data, csrfToken: String, expiresAt: Int64, keeping: Int
    ) async throws -> DashboardSession

    /// The session of `tokenHash` unless it expired at or before `now`.
    func session(tokenHash: Data, now: Int64) async throws -> DashboardSession?

    /// Which of `tokenHashes` name sessions that had not expired at `now`.
    func liveSessions(tokenHashes: Set<Data>, now: Int64) async throws -> Set<Data>

    /// Deletes the session of `tokenHash`, if any.
    func deleteSession(tokenHash: Data) async throws

    /// Deletes the sessions expired at or before `now`; returns how many.
    func deleteExpiredSessions(now: Int64) async throws -> Int

    /// The layout `user` saved for `app`, or `nil`.
    func sectionLayout(user: DashboardUserID, app: AppID) async throws -> Data?

    /// Stores `user`'s layout for `app`; throws ``TallyStoreError/unknownUser(_:)`` or ``TallyStoreError/unknownApp(_:)``.
    func saveSectionLayout(_ data: Data, user: DashboardUserID, app: AppID) async throws
}

/// Where a read of raw events stopped: the timestamp and the storage order of the last event.
struct EventCursor: Sendable, Equatable {
    var timestamp: Int64
    var sequence: Int64
}

/// The two secrets of an app, stored as hashes (see ``AccessKey``).
enum AppSecret {
    /// The ingest key SDKs send.
    case ingestKey
    /// The read token of metrics and export.
    case readToken
}

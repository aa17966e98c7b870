import Foundation
import TallyEvent

/// One tracked user's data: erasure on request, its record, and export. Reached as ``EventStore/userData``.
public struct UserDataStore: Sendable {
    let store: EventStore
    var backend: any StoreBackend { store.backend }
}

extension EventStore {
    /// Erasure and export of one user's data.
    public var userData: UserDataStore { UserDataStore(store: self) }
}

extension UserDataStore {
    /// Deletes everything stored about `user` in `app` — raw events, its `app_user` row, its
    /// number in every user set, its events in the bucket logs and in every count, its user
    /// properties, and a `label` holding its id that nothing else refers to — in its
    /// production and debug builds, and keeps a record of the deletion without the id.
    ///
    /// Rollups are corrected from the rollups themselves (see ``UserRemoval``), so every metric
    /// afterwards equals that of a store that never received the user's events, even where raw
    /// events of the past are no longer kept. The user's events in the bucket logs are hidden
    /// at once, under the user's number only, and taken out by ``foldUserRemovals()``. The
    /// user's next event makes a new user, first seen then.
    ///
    /// - Parameters:
    ///   - actor: who deletes: a dashboard user's name, or `cli`.
    /// - Returns: the record of the deletion.
    /// - Throws: ``TallyStoreError/unknownApp(_:)``, or ``TallyStoreError/unknownAppUser(_:)``
    ///   when neither build of the app has such a user.
    public func delete(app: AppID, user: String, by actor: String) async throws -> UserDeletion {
        guard try await store.apps.app(id: app.production) != nil else { throw TallyStoreError.unknownApp(app) }
        guard let deletion = try await backend.deleteUser(user, app: app.production, by: actor, at: Date()) else {
            throw TallyStoreError.unknownAppUser(user)
        }
        return deletion
    }

    /// The buckets one write of ``foldUserRemovals()`` folds: about 10 ms on SQLite and 18 ms
    /// on PostgreSQL for the busy buckets of the 60-day fixture, within the 25 ms a pruning's
    /// write aims at (64 took 20 and 36 ms).
    static let removalFoldBatch = 32

    /// Takes deleted users' events out of the bucket logs, where ``deleteUserData(app:user:by:)``
    /// left them hidden (no reader sees them; see `BucketLogTails`), a few buckets per write so
    /// that ingest's commits get in between. First it finishes the deletions a killed process
    /// left unfinished a minute or more ago. `tally serve` runs it every minute, and
    /// `tally user-data delete` after the deletion.
    ///
    /// - Returns: how many buckets it folded.
    @discardableResult
    public func foldRemovals() async throws -> Int {
        _ = try await backend.finishInterruptedDeletions(now: Date())
        var folded = 0
        while case let count = try await backend.foldUserRemovals(limit: Self.removalFoldBatch), count > 0 {
            folded += count
            try Task.checkCancellation()
        }
        return folded
    }

    /// The records of the deletions of users' data in `app`, oldest first.
    public func deletions(app: AppID) async throws -> [UserDeletion] {
        guard try await store.apps.app(id: app.production) != nil else { throw TallyStoreError.unknownApp(app) }
        return try await backend.userDeletions(app: app.production)
    }

    /// The most milliseconds of a user's events ``exportUserData(app:user:into:)`` reads and
    /// writes at once: a page of about 1.6 MB at 400 bytes an event.
    static let userExportPage = 4_096

    /// Whether `app` (its production or debug builds) has stored `user`: whether
    /// ``exportUserData(app:user:into:)`` and ``deleteUserData(app:user:by:)`` find them.
    ///
    /// - Throws: ``TallyStoreError/unknownApp(_:)``.
    public func contains(app: AppID, user: String) async throws -> Bool {
        guard try await store.apps.app(id: app.production) != nil else { throw TallyStoreError.unknownApp(app) }
        for id in [app.production, app.debug] where try await backend.appUser(app: id, id: user) != nil { return true }
        return false
    }

    /// Writes everything stored about `user` in `app` (its production and debug builds) as
    /// NDJSON, one JSON object per line, keys sorted, into `output`, a page of events at a time
    /// (``userExportPage``):
    ///
    /// - per build that knows the user, a `"record": "user"` line: `app` (the id the data is
    ///   kept under, negative for debug builds), `user_id`, `first_seen`;
    /// - a `"record": "user_property"` line per user property value it has (`property`,
    ///   `value`);
    /// - every raw event, oldest first, as `tally export` writes it (no `record` key);
    /// - a `"record": "summary"` line per build: `events` (in the rollups) and `raw_events`
    ///   (kept as raw rows); fewer raw events mean that those before a retention horizon are no
    ///   longer kept.
    ///
    /// - Returns: how many raw events it wrote.
    /// - Throws: ``TallyStoreError/unknownApp(_:)``, or ``TallyStoreError/unknownAppUser(_:)``
    ///   when neither build of the app has such a user.
    public func export(app: AppID, user: String, into output: ([UInt8]) async throws -> Void) async throws -> Int {
        guard let settings = try await store.apps.app(id: app.production) else { throw TallyStoreError.unknownApp(app) }
        var found = false
        var written = 0
        for id in [app.production, app.debug] {
            guard let (appUser, number, lastDay) = try await backend.appUser(app: id, id: user) else { continue }
            found = true
            var line = UserDataLine(app: id)
            line.user(appUser)
            let traits = try await backend.userTraits(app: id, number: number, properties: settings.segmentProperties.user)
            for (property, value) in traits.sorted(by: { $0.key < $1.key }) { line.property(property, value: value) }
            try await output(line.bytes)
            let firstDay = Bucket.day(of: Bucket.containing(milliseconds: appUser.firstSeen.unixMilliseconds))
            let search = UserEventSearch(
                store: store, app: id, user: user, number: number, days: firstDay...max(firstDay, lastDay),
                properties: settings.segmentProperties, traits: traits)
            var events = 0
            var rawEvents = 0
            for day in try await search.activeDays(firstDay...max(firstDay, lastDay)).reversed() {
                let logged = try await search.milliseconds(on: day, through: nil, filter: SegmentFilter())
                events += logged.count
                let milliseconds = Set(logged).sorted()
                for start in stride(from: 0, to: milliseconds.count, by: Self.userExportPage) {
                    let at = Array(milliseconds[start..<min(start + Self.userExportPage, milliseconds.count)])
                    let page = try await backend.exportUserEvents(app: id, user: user, at: at)
                    if page.count > 0 { try await output(page.bytes) }
                    rawEvents += page.count
                }
            }
            written += rawEvents
            var summary = UserDataLine(app: id)
            summary.summary(events: events, rawEvents: rawEvents)
            try await output(summary.bytes)
        }
        guard found else { throw TallyStoreError.unknownAppUser(user) }
        return written
    }
}

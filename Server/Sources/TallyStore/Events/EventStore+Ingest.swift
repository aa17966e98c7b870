public import TallyEvent

extension EventStore {
    /// Stores a batch of validated events for `app` and updates the rollups, in one transaction.
    ///
    /// An event whose id is already stored for the app, or appears earlier in the batch, is
    /// a duplicate: it is not stored again and does not count in metrics. When this method
    /// returns, the accepted events and their rollups are committed and synced to disk
    /// (see "Durability" in ``EventStore``); if it throws, nothing from the batch is stored.
    ///
    /// Concurrent calls share transactions: batches that wait while another transaction
    /// commits are committed together, each in its own savepoint, so one batch's failure
    /// leaves the others stored (see ``GroupCommit``). Callers gain throughput by inserting
    /// from several tasks at once, as a server does with one task per request.
    ///
    /// Validation (required fields, accepted age, clock-skew correction) is the caller's job.
    /// Events from debug builds (``Event/isDebug``) are kept under the app's ``AppID/debug``
    /// id, apart from production.
    ///
    /// - Throws: ``TallyStoreError/unknownApp(_:)`` if no app has id `app`, or a database error.
    @discardableResult
    public func insert(_ events: [Event], app: AppID) async throws -> InsertResult {
        guard events.contains(where: \.isDebug) else { return try await backend.insert(events, app: app.production) }
        // An SDK sends either kind from one build: a batch of both is stored as two.
        var result = InsertResult()
        for part in [events.filter { !$0.isDebug }, events.filter(\.isDebug)] where !part.isEmpty {
            result = result.adding(try await backend.insert(part, app: part[0].isDebug ? app.debug : app.production))
        }
        return result
    }
}

extension EventStore {
    /// The events that other processes sharing this database store, as their transactions
    /// commit: live views of a server add them to the ones it stored itself.
    ///
    /// On PostgreSQL, where several collectors share a database, each commit notifies the
    /// others (`NOTIFY`), and the stream follows them for as long as it is iterated,
    /// reconnecting after a lost connection (notices sent meanwhile are lost: a view must not
    /// rely on them for exact figures). On SQLite, whose file one server owns, it is empty.
    public func ingestNotices() -> AsyncStream<IngestNotice> {
        backend.ingestNotices()
    }
}

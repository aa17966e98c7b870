public import TallyEvent

/// The raw events: ingest in group commits, the stream of commits, the latest events, export, and the ingest outcomes behind data health. Reached as ``EventStore/events``.
public struct EventLog: Sendable {
    let store: EventStore
    var backend: any StoreBackend { store.backend }
}

extension EventStore {
    /// The raw events: ingest, commits, the latest events and export.
    public var events: EventLog { EventLog(store: self) }
}

extension EventLog {
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
        // An SDK sends either kind from one build: a batch of both is stored as two.
        let parts = events.contains(where: \.isDebug) ? [events.filter { !$0.isDebug }, events.filter(\.isDebug)] : [events]
        var result = InsertResult()
        for part in parts where !part.isEmpty {
            let id = part[0].isDebug ? app.debug : app.production
            let stored = try await backend.insert(part, app: id)
            store.commitFeed.publish(EventsCommitted(app: id, count: stored.accepted))
            result = result.adding(stored)
        }
        return result
    }
}

extension EventLog {
    /// Every durable commit of new events from now on, as it happens: this process's, and on
    /// PostgreSQL those of the other collectors sharing the database.
    ///
    /// On PostgreSQL each commit notifies the other processes (`NOTIFY`), and the stream
    /// follows them for as long as it is read, reconnecting after a lost connection (commits
    /// meanwhile are not heard: a live view must not rely on them for exact figures). A
    /// reader that falls ``CommitFeed/backlog`` commits behind loses the oldest.
    public func commits() -> AsyncStream<EventsCommitted> {
        store.commitFeed.stream(merging: backend.remoteCommits())
    }
}

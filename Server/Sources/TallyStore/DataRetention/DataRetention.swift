public import Foundation

/// How long raw events are kept: pruning what each app's raw retention no longer keeps. Reached as ``EventStore/dataRetention``.
public struct DataRetention: Sendable {
    let store: EventStore
    var backend: any StoreBackend { store.backend }
}

extension EventStore {
    /// Pruning of raw events past each app's retention.
    public var dataRetention: DataRetention { DataRetention(store: self) }
}

extension DataRetention {
    /// How long one write of a pruning aims to hold the database's write lock: half of the
    /// 50 ms ingest may wait for it.
    static let pruneBatchTarget = Duration.milliseconds(25)

    /// Deletes the raw events each app no longer keeps (``App/rawRetentionDays``): those, of
    /// the app and its ``AppID/debug`` id, before ``App/rawEventsHorizon(at:)``. Apps without
    /// a retention are left alone.
    ///
    /// Only raw events go: rollups, and so every metric, retention cohort, funnel, path and
    /// segment, stay as they were. Each app's ``App/rawEventsKeptSince`` is set before its
    /// events are deleted, so exports, timelines and property metrics say what they no longer
    /// cover from the start. On SQLite, events are deleted in batches sized to hold the write
    /// lock about 25 ms each, so ingest's group commits get in between; on PostgreSQL, a
    /// month's partition that holds only events past every app's retention is emptied whole
    /// (`TRUNCATE`), and the rest is deleted by rows. Several processes may call it at once:
    /// on PostgreSQL one prunes and the others skip (``RawEventPruning/skipped``).
    ///
    /// `tally serve` runs it at start and hourly (its `RawEventPruner` service).
    public func prune(now: Date = Date()) async throws -> RawEventPruning {
        var horizons: [AppID: Int64] = [:]
        for app in try await backend.apps() {
            if let horizon = app.rawEventsHorizon(at: now) { horizons[app.id] = horizon.unixMilliseconds }
        }
        guard !horizons.isEmpty else { return RawEventPruning() }
        return try await backend.pruneRawEvents(horizons: horizons, batchTarget: Self.pruneBatchTarget)
    }
}

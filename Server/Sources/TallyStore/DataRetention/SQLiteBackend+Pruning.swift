import Foundation
import GRDB

extension SQLiteBackend {
    /// The fewest and most events one batch deletes.
    static let pruneBatchSizes = 100...200_000

    /// Deletes each app's old events in batches, each a transaction of its own committed
    /// without a sync (a batch lost to a power cut is deleted again by the next pruning; the
    /// horizon is recorded first, with a sync). A batch deletes the oldest events of the id
    /// through `event_by_time`; its size follows the last batch's time towards `batchTarget`,
    /// halving at most or doubling at most from one batch to the next. Between batches the
    /// writer is free: ingest's group commits, queued meanwhile on GRDB's writer, run first.
    ///
    /// A batch's commit never checkpoints the WAL: after each batch, a connection of the
    /// pruning's own copies its pages into the database file (a passive checkpoint, which
    /// takes no write lock), beside the writer. (A commit past ``autocheckpointPages``
    /// checkpointed 64 MiB inside the batch, 110 ms against a 25 ms target on the 60-day
    /// fixture; a checkpoint on the writer after each batch held it up to 72 ms.)
    func pruneRawEvents(horizons: [AppID: Int64], batchTarget: Duration) async throws -> RawEventPruning {
        var pruning = RawEventPruning()
        var size = 1_000
        let checkpointer = try DatabaseQueue(path: pool.path)
        for (app, horizon) in horizons.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let keptSince = try await pool.write { db in
                try db.execute(
                    sql: "UPDATE app SET raw_kept_since = max(coalesce(raw_kept_since, ?1), ?1) WHERE id = ?2",
                    arguments: [horizon, app.rawValue])
                return try Int64.fetchOne(db, sql: "SELECT raw_kept_since FROM app WHERE id = ?", arguments: [app.rawValue])
            }
            guard let keptSince else { continue }
            pruning.keptSince[app] = Date(unixMilliseconds: keptSince)
            for id in [app, app.debug] {
                while true {
                    try Task.checkCancellation()
                    let (deleted, duration) = try await deleteBatch(app: id, before: horizon, count: size)
                    pruning.record(batch: duration, deleted: deleted)
                    // One that fails (busy while another checkpoint runs) leaves the pages to the next.
                    try? await checkpointer.writeWithoutTransaction { _ = try $0.checkpoint(.passive) }
                    guard deleted == size else { break }
                    let scale = min(max(batchTarget / max(duration, .microseconds(1)), 0.5), 2)
                    size = min(max(Int(Double(size) * scale), Self.pruneBatchSizes.lowerBound), Self.pruneBatchSizes.upperBound)
                }
            }
        }
        return pruning
    }

    /// Deletes the `count` oldest events of `app` before `horizon` in one transaction; returns
    /// how many it deleted and how long the transaction took, commit included.
    private func deleteBatch(app: AppID, before horizon: Int64, count: Int) async throws -> (Int, Duration) {
        try await pool.writeWithoutTransaction { db in
            let clock = ContinuousClock()
            let start = clock.now
            try db.execute(sql: "PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 0")
            defer { try? db.execute(sql: "PRAGMA synchronous = FULL; PRAGMA wal_autocheckpoint = \(Self.autocheckpointPages)") }
            var deleted = 0
            try db.inTransaction {
                try db.execute(
                    sql: """
                        DELETE FROM event WHERE rowid IN (
                            SELECT rowid FROM event WHERE app_id = ?1 AND timestamp < ?2 ORDER BY timestamp LIMIT ?3)
                        """,
                    arguments: [app.rawValue, horizon, count])
                deleted = db.changesCount
                return .commit
            }
            return (deleted, start.duration(to: clock.now))
        }
    }
}

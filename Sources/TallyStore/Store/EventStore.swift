import GRDB

/// Tally's storage: apps and their keys, raw events, the rollups kept beside them, and exact
/// metrics computed from those rollups, in one SQLite database.
///
/// A store is `Sendable` and meant to be shared: one instance per database file, used from
/// any number of tasks. It wraps a GRDB `DatabasePool` in WAL mode, so reads (metrics,
/// lookups, export) run concurrently with each other and with the single writer; writes
/// (ingest, app changes) are serialized. Every method is `async` and suspends, rather than
/// blocks, while it waits for a connection.
///
/// ## Durability
///
/// The writer connection runs with `PRAGMA synchronous = FULL`: SQLite syncs the WAL on every
/// commit, so when ``insert(_:app:)`` returns the batch survives a power loss or kernel
/// crash, not only a crash of this process (WAL with `NORMAL` would lose the last commits on
/// power loss, which would break the acknowledgement the ingest API gives clients).
/// Measured on the 2-core development VM (ext4 on a virtio disk whose synchronous 4 KiB write
/// takes ≈ 2.7 ms): bare 100-row transactions into the `event` table ran at 13–18k rows/s with
/// either setting across runs (FULL 13.4k vs NORMAL 17.8k in one run, 17.7k vs 16.3k in another),
/// because a batch of random event ids dirties ~100 index pages that must reach the disk anyway.
/// The durable guarantee is worth that cost; throughput under concurrency comes from
/// committing concurrent batches together (``GroupCommit``), not from weakening the sync.
public final class EventStore: Sendable {
    /// The longest range, in days, ``metricsRange(app:from:to:timeZone:)`` accepts.
    public static let maximumRangeDays = 366

    let pool: DatabasePool
    let groupCommit: GroupCommit

    /// Opens the store at `path`, creating the file and schema if needed and migrating an
    /// older schema.
    ///
    /// - Parameter path: A file path; the directory must exist. SQLite also creates
    ///   `path-wal` and `path-shm` beside it.
    /// - Throws: A database error if the file cannot be opened or migrated.
    public init(path: String) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            // 64 MiB page cache per connection: rollup and index pages of recent days stay hot.
            try db.execute(sql: "PRAGMA cache_size = -65536")
            // Savepoint journals (one savepoint per batch in a group commit) stay in memory.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        try pool.writeWithoutTransaction { db in
            // After the pool opened: GRDB sets NORMAL when it enables WAL.
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // Checkpoint every 64 MiB of WAL instead of 4 MiB: rollup pages rewritten by many
            // batches reach the database file once per checkpoint (+37% batch throughput measured).
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 16384")
        }
        try Schema.migrator.migrate(pool)
        groupCommit = GroupCommit(pool: pool)
    }
}

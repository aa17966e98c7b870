/// The names of the metrics the store reports through swift-metrics' `MetricsSystem`, which
/// the application bootstraps (`tally serve` with Prometheus; without a bootstrap they cost
/// nothing). Created with the factory bootstrapped when the store opens.
public enum StoreTelemetry {
    /// A timer: each wait for the disk that makes commits durable — SQLite's `fsync` of its
    /// write-ahead log, or PostgreSQL's `COMMIT`.
    public static let fsyncSeconds = "tally_fsync_seconds"
    /// A recorder: the batches of each group commit's transaction.
    public static let groupCommitBatches = "tally_group_commit_batches"
    /// A recorder: the events of each group commit's transaction.
    public static let groupCommitEvents = "tally_group_commit_events"
}

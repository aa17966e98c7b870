public import Foundation

/// What one pruning of raw events did: the answer of ``DataRetention/prune(now:)``.
public struct RawEventPruning: Equatable, Sendable {
    /// Each app pruned, with the first instant of its kept raw events.
    public var keptSince: [AppID: Date] = [:]
    /// The raw events deleted, those of ``emptiedPartitions`` included.
    public var deletedEvents = 0
    /// The monthly partitions emptied whole (PostgreSQL), by table name.
    public var emptiedPartitions: [String] = []
    /// The write transactions that deleted rows.
    public var batches = 0
    /// The longest of those transactions, from its start to its commit: how long it kept
    /// other writers (ingest) waiting at most.
    public var longestBatch = Duration.zero
    /// Whether another process was pruning the same database, so this one did nothing
    /// (PostgreSQL).
    public var skipped = false

    /// Counts one batch that deleted `count` events in `duration`.
    mutating func record(batch duration: Duration, deleted count: Int) {
        batches += 1
        deletedEvents += count
        longestBatch = max(longestBatch, duration)
    }
}

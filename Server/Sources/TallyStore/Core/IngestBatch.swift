@_spi(Wire) import TallyEvent

/// The events of one ``EventLog/insert(_:app:)`` call, with the values their `event` rows
/// store, computed by the caller before it queues so the writer does only database work.
struct IngestBatch: Sendable {
    /// An event and its stored values.
    struct Row: Sendable {
        var event: Event
        /// ``Event/timestamp`` in milliseconds since 1970.
        var timestamp: Int64
        /// ``Event/deviceTimestamp`` in milliseconds since 1970.
        var deviceTimestamp: Int64
        /// ``Event/properties`` as a JSON object, keys sorted (``JSONWriter/object(_:)``).
        var properties: String

        init(_ event: Event) {
            self.event = event
            timestamp = event.timestamp.unixMilliseconds
            deviceTimestamp = event.deviceTimestamp.unixMilliseconds
            var json = JSONWriter()
            json.object(event.properties)
            properties = json.text
        }
    }

    var rows: [Row]
    var app: AppID

    /// The outcome of storing the batch once `accepted` are its rows that were not stored
    /// before, and adds them to the app's rollup delta.
    func result(accepted: [Row], deltas: inout [AppID: RollupDelta]) -> InsertResult {
        for row in accepted { deltas[app, default: RollupDelta()].add(row.event, timestamp: row.timestamp) }
        return InsertResult(accepted: accepted.count, duplicates: rows.count - accepted.count)
    }
}

/// The database side of a ``GroupCommit``: one transaction per group of batches.
protocol GroupWriter: Sendable {
    /// Writes one transaction: takes its batches with `takeGroup` once it holds the database's
    /// writer, stores each batch in isolation (a batch that fails rolls back alone), then
    /// their rollups and the counts of `takeHealthCounts`, and commits.
    ///
    /// - Returns: Each batch's outcome, in order.
    /// - Throws: If the transaction could not begin or commit: then nothing of it is stored.
    func commit(
        takeGroup: @escaping @Sendable () -> [IngestBatch], takeHealthCounts: @escaping @Sendable () -> HealthCounts
    ) async throws -> [Result<InsertResult, any Error>]

    /// How many transactions ``GroupCommit`` may have in flight at once: 1 for a database
    /// with a single writer.
    var concurrentTransactions: Int { get }

    /// Calls `body` once every transaction committed so far is durable, with the error if
    /// making them durable failed.
    func afterDurable(_ body: @escaping @Sendable (Result<Void, any Error>) -> Void)
}

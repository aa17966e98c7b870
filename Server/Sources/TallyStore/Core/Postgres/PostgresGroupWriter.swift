import Foundation
import Locking
import Logging
import NIOCore
import PostgresNIO

/// Writes ``GroupCommit``'s transactions to PostgreSQL: each batch in a savepoint, rows sent
/// as arrays (`unnest`), and the commit durable when it returns.
///
/// Several transactions may write at once: two of this process (see
/// ``concurrentTransactions``), and those of other collectors on the same database. Each
/// transaction inserts its events first, then takes an advisory lock per app it writes, in app
/// order, so an app's rollup rows, which are read, merged and written back, have one writer at
/// a time, while another transaction's inserts go on. Rows that two transactions may both
/// write are written in one order by every transaction, so they never wait for each other in a
/// cycle: event keys in (app, id) order, then the app locks in id order, then all the
/// transaction's labels in one statement in text order, then data health counts in key order.
final class PostgresGroupWriter: GroupWriter {
    /// The high half of the advisory lock keys of apps.
    static let appLockSpace: Int64 = 0x7461_6c6c << 32

    /// The advisory lock a deletion of a user's data takes exclusively, after its app's locks,
    /// and every transaction that merges rollups takes shared, after its apps' locks, before
    /// it reads the last deletion's id (`user_deletion`) and trusts its ``RollupCache``: a
    /// deletion invalidates the facts cached in every process (a user's number, a label's id).
    static let deletionLock: Int64 = 0x7461_6c6c_7a00

    let client: PostgresClient
    let logger: Logger
    /// Names this process in the commit notices it sends (see ``PostgresBackend/remoteCommits()``).
    let origin = UUID().uuidString
    /// What committed transactions found, taken out by one transaction at a time and put back
    /// if it commits; a transaction that finds it taken out starts from an empty one. Facts
    /// another transaction committed meanwhile never make an entry wrong (see ``RollupCache``).
    private let cache = Locked<RollupCache?>(RollupCache())
    /// Two transactions, so that one's inserts overlap the other's rollups and commit: with one,
    /// the collector and PostgreSQL took turns, and both cores were half idle. `IngestOnOneCore`
    /// at 64 connections, alternated with a build writing one at a time: 1.11x at the medians
    /// (see docs/benchmarks.md).
    let concurrentTransactions = 2
    /// The months whose partition exists.
    private let partitions = Locked(Set<EventPartition>())

    init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    func commit(
        takeGroup: @escaping @Sendable () -> [IngestBatch], takeHealthCounts: @escaping @Sendable () -> HealthCounts
    ) async throws -> [Result<InsertResult, any Error>] {
        let group = takeGroup()
        try await createPartitions(for: group)
        let cache = self.cache.withLock { $0.take() } ?? RollupCache()
        // The batches go in together; if that fails, the transaction is retried with each
        // batch under a savepoint of its own, to roll back only the failing ones.
        let attempt = { @Sendable [client, logger, origin] (together: Bool) in
            try await client.transaction(logger: logger) { connection in
                var writer = Transaction(connection: connection, logger: logger, origin: origin, cache: cache)
                let outcomes = try await writer.store(group, together: together)
                var health = takeHealthCounts()
                health.merge(writer.health)
                try await writer.write(health)
                return (outcomes, writer.cache)
            }
        }
        var (outcomes, written): ([Result<InsertResult, any Error>], RollupCache)
        do {
            (outcomes, written) = try await attempt(group.count > 1)
        } catch is Transaction.TogetherFailed {
            (outcomes, written) = try await attempt(false)
        }
        written.trim()
        self.cache.withLock { cache in
            if cache == nil { cache = written }
        }
        return outcomes
    }

    func afterDurable(_ body: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        body(.success(()))
    }

    /// Takes the advisory lock of each of `apps` until the transaction on `connection` ends,
    /// in the order of their ids: the order every transaction that writes an app's rollups
    /// or segments takes them in, so that none wait for each other in a cycle.
    static func lock(_ apps: some Sequence<AppID>, _ connection: PostgresConnection, logger: Logger) async throws {
        for app in Set(apps).sorted(by: { $0.rawValue < $1.rawValue }) {
            try await connection.query("SELECT pg_advisory_xact_lock(\(appLockSpace | (app.rawValue & 0xFFFF_FFFF)))", logger: logger)
        }
    }

    /// Creates the monthly partitions `group`'s events need, each in its own transaction
    /// under an advisory lock, so that collectors creating the same month wait for each other.
    private func createPartitions(for group: [IngestBatch]) async throws {
        var needed: Set<EventPartition> = []
        for batch in group {
            for row in batch.rows {
                if let partition = EventPartition(containing: row.timestamp) { needed.insert(partition) }
            }
        }
        needed.subtract(partitions.withLock { $0 })
        for partition in needed {
            let range = partition.milliseconds
            try await client.transaction(logger: logger) { [logger] connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresSchema.migrationLock))", logger: logger)
                try await connection.query(
                    PostgresQuery(
                        unsafeSQL: """
                            CREATE TABLE IF NOT EXISTS \(partition.table) PARTITION OF event
                            FOR VALUES FROM (\(range.lowerBound)) TO (\(range.upperBound))
                            """), logger: logger)
            }
            partitions.withLock { _ = $0.insert(partition) }
        }
    }
}

extension PostgresGroupWriter {
    /// One group's transaction on one connection.
    struct Transaction {
        let connection: PostgresConnection
        let logger: Logger
        let origin: String
        var cache: RollupCache
        /// The purchase events the transaction stored that carry no purchase.
        var health = HealthCounts()

        /// Stores every batch of `group`, then the group's rollups; returns each batch's outcome
        /// in order.
        ///
        /// With `together`, the batches go in two statements whatever their number, and any
        /// failure throws ``TogetherFailed``; without, each goes under a savepoint of its own (4
        /// round trips a batch), so a failing batch rolls back alone.
        mutating func store(_ group: [IngestBatch], together: Bool) async throws -> [Result<InsertResult, any Error>] {
            // The ids stored under: apps', and their debug ids (``AppID/debug``).
            let apps = Set(group.map(\.app)).sorted { $0.rawValue < $1.rawValue }
            var knownApps: Set<AppID> = []
            for try await id in try await connection.query(
                "SELECT id FROM app WHERE id = ANY(\(Set(apps.map(\.production.rawValue)).sorted()))", logger: logger
            ).decode(Int64.self) {
                knownApps.insert(AppID(rawValue: id))
            }
            // Each batch's new rows, or why it was not stored.
            var inserted: [Result<[IngestBatch.Row], any Error>] = group.map { batch in
                knownApps.contains(batch.app.production) ? .success([]) : .failure(TallyStoreError.unknownApp(batch.app))
            }
            let storable = group.indices.filter { knownApps.contains(group[$0].app.production) }
            if together {
                do {
                    for (index, rows) in zip(storable, try await insert(storable.map { group[$0] })) { inserted[index] = .success(rows) }
                } catch {
                    throw TogetherFailed()
                }
            } else {
                for index in storable { inserted[index] = try await insertAlone(group[index]) }
            }
            try await PostgresGroupWriter.lock(apps, connection, logger: logger)
            // Only stored events reach the rollups.
            var deltas: [AppID: RollupDelta] = [:]
            let outcomes = zip(group, inserted).map { batch, rows in rows.map { batch.result(accepted: $0, deltas: &deltas) } }
            try await write(deltas)
            try await notify(group, outcomes)
            return outcomes
        }

        /// Merges each app's delta into its rollups and segments, holding the apps' locks.
        ///
        /// The apps' segment properties are read once the locks are held, so that a change of
        /// them, which rebuilds the segments under the same locks (see
        /// ``PostgresBackend/updateApp(_:timeZone:acceptedEventAge:segmentProperties:)``), is
        /// either wholly before this write or wholly after it. Every label the apps need is
        /// interned first, in one statement, in text order (see the type).
        private mutating func write(_ deltas: [AppID: RollupDelta]) async throws {
            guard !deltas.isEmpty else { return }
            try await connection.query("SELECT pg_advisory_xact_lock_shared(\(PostgresGroupWriter.deletionLock))", logger: logger)
            let deletions = try await connection.query("SELECT coalesce(max(id), 0) FROM user_deletion", logger: logger)
                .collect(as: Int64.self)[0]
            if deletions != cache.deletions { cache = RollupCache(deletions: deletions) }
            let segmented = Set(deltas.filter { !$0.value.segments.isEmpty }.keys.map(\.production.rawValue)).sorted()
            var properties: [AppID: (segments: SegmentProperties, purchaseEvent: String)] = [:]
            if !segmented.isEmpty {
                for try await (id, json, purchaseEvent) in try await connection.query(
                    "SELECT id, segment_properties, purchase_event FROM app WHERE id = ANY(\(segmented))", logger: logger
                ).decode((Int64, String, String).self) {
                    properties[AppID(rawValue: id)] = (SegmentProperties(json: json), purchaseEvent)
                }
            }
            var texts: Set<String> = []
            var plans: [AppID: SegmentDelta.Plan] = [:]
            for (app, delta) in deltas {
                texts.formUnion(delta.labelTexts)
                guard !delta.segments.isEmpty else { continue }
                let stored = properties[app.production]
                let plan = delta.segments.plan(stored?.segments ?? SegmentProperties(), purchaseEvent: stored?.purchaseEvent)
                health.add(purchaseProblems: plan.purchaseProblems, app: app)
                texts.formUnion(plan.texts)
                plans[app] = plan
            }
            let labels = try await PostgresRollupWrites.resolveLabels(texts, cache: &cache, connection: connection, logger: logger)
            for (app, delta) in deltas.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                try await delta.write(
                    connection, app: app, labels: labels, segmentPlan: plans[app] ?? SegmentDelta.Plan(), cache: &cache, logger: logger)
            }
        }

        /// Tells the other processes on the database, at commit, how many events each app gained.
        private func notify(_ group: [IngestBatch], _ outcomes: [Result<InsertResult, any Error>]) async throws {
            var accepted: [AppID: Int] = [:]
            for (batch, outcome) in zip(group, outcomes) {
                if case .success(let result) = outcome, result.accepted > 0 { accepted[batch.app, default: 0] += result.accepted }
            }
            let encoder = JSONEncoder()
            for (app, count) in accepted {
                let notice = PostgresBackend.NoticePayload(origin: origin, commit: EventsCommitted(app: app, count: count))
                let payload = String(decoding: try encoder.encode(notice), as: UTF8.self)
                try await connection.query("SELECT pg_notify(\(PostgresBackend.noticeChannel), \(payload))", logger: logger)
            }
        }

        /// The batches of a group stored together failed: their transaction is aborted, and the
        /// group must be stored again batch by batch (see ``store(_:together:)``).
        struct TogetherFailed: Error {}

        /// Inserts the new events of `batch` under a savepoint of its own; returns them, or the
        /// error that rolled the batch back alone.
        private func insertAlone(_ batch: IngestBatch) async throws -> Result<[IngestBatch.Row], any Error> {
            try await connection.query("SAVEPOINT batch", logger: logger)
            do {
                let inserted = try await insert([batch])[0]
                try await connection.query("RELEASE SAVEPOINT batch", logger: logger)
                return .success(inserted)
            } catch {
                try await connection.rollback(to: "batch", logger: logger)
                return .failure(error)
            }
        }

        /// Inserts the events of `batches` whose id their app has not stored; returns them per
        /// batch. Of several rows with one id, the first is the one stored.
        private func insert(_ batches: [IngestBatch]) async throws -> [[IngestBatch.Row]] {
            var keys = batches.flatMap { batch in batch.rows.map { (batch.app.rawValue, $0.event.id) } }
            guard !keys.isEmpty else { return batches.map { _ in [] } }
            // A key another transaction inserted and has not committed makes this one wait;
            // in one order, two transactions never wait for each other.
            keys.sort { ($0.0, $0.1) < ($1.0, $1.1) }
            var fresh: [Int64: Set<UUID>] = [:]
            for try await (app, id) in try await connection.query(
                """
                INSERT INTO event_key (app_id, id) SELECT * FROM unnest(\(keys.map(\.0)), \(keys.map(\.1)))
                ON CONFLICT DO NOTHING RETURNING app_id, id
                """, logger: logger
            ).decode((Int64, UUID).self) {
                fresh[app, default: []].insert(id)
            }
            let inserted = batches.map { batch in
                batch.rows.filter { fresh[batch.app.rawValue]?.remove($0.event.id) != nil }
            }
            let accepted = zip(batches, inserted).flatMap { batch, rows in rows.map { (batch.app.rawValue, $0) } }
            guard !accepted.isEmpty else { return inserted }
            let rows = accepted.map(\.1)
            try await connection.query(
                """
                INSERT INTO event (app_id, id, name, timestamp, device_timestamp, user_id, session_id, app_version, platform, properties)
                SELECT app_id, id, name, timestamp, device_timestamp, user_id,
                    CASE WHEN has_session THEN session_id END, app_version, platform, properties::json
                FROM unnest(
                    \(accepted.map(\.0)), \(rows.map(\.event.id)), \(rows.map(\.event.name)), \(rows.map(\.timestamp)),
                    \(rows.map(\.deviceTimestamp)), \(rows.map(\.event.userID)), \(rows.map { $0.event.sessionID ?? "" }),
                    \(rows.map { $0.event.sessionID != nil }), \(rows.map(\.event.appVersion)), \(rows.map(\.event.platform)),
                    \(rows.map(\.properties))
                ) AS row (app_id, id, name, timestamp, device_timestamp, user_id, session_id, has_session, app_version, platform, properties)
                """, logger: logger)
            return inserted
        }

        /// Adds data health counts to `ingest_health`, saturating at `Int64.max`.
        func write(_ counts: HealthCounts) async throws {
            guard !counts.isEmpty else { return }
            // In key order, as two transactions may add to the same rows (see the type).
            let rows = counts.counts.sorted { $0.key < $1.key }
            try await connection.query(
                """
                INSERT INTO ingest_health (app_id, bucket, outcome, reason, count)
                SELECT * FROM unnest(
                    \(rows.map(\.key.app.rawValue)), \(rows.map(\.key.bucket)), \(rows.map(\.key.outcome.rawValue)),
                    \(rows.map(\.key.reason)), \(rows.map { Int64($0.value) }))
                ON CONFLICT (app_id, bucket, outcome, reason)
                DO UPDATE SET count = least(ingest_health.count::numeric + excluded.count, 9223372036854775807)::bigint
                """, logger: logger)
        }
    }
}

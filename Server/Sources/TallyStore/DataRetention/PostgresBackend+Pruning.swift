import Foundation
import Logging
import PostgresNIO
import TallyEvent

extension PostgresBackend {
    /// The key of the advisory lock a pruning holds, so that of several collectors sharing the
    /// database one prunes at a time.
    static let pruneLock: Int64 = 0x7461_6c6c_7901

    /// The events one `DELETE` of the edge removes at most.
    static let pruneDeleteSize = 10_000

    /// Prunes under the session advisory lock ``pruneLock``, on one connection, or skips if
    /// another process holds it.
    ///
    /// `event` is partitioned by UTC month for every app at once, while retention is per app.
    /// So, first, each month whose partition ends at or before the latest horizon is emptied
    /// whole (`TRUNCATE`) if no id without a horizon at or past its end has an event in it:
    /// the partition is locked (`ACCESS EXCLUSIVE`, waiting 2 seconds at most, else left to
    /// the rows' deletion) before that check, so no event can arrive in it meanwhile. The
    /// partition is emptied, not dropped: collectors remember the partitions that exist, and
    /// one that vanished would send a late event of that month to `event_other`, where it
    /// would stop the month's partition from ever being created again. Then the rest of each
    /// app's old events (the edge: the month of its horizon, and months other apps still
    /// keep) is deleted in statements of ``pruneDeleteSize`` events. `event_key` keeps the
    /// pruned ids: ingest cannot accept them again anyway (see
    /// ``App/validate(rawRetention:acceptedEventAge:)``), and they are what deduplicates.
    func pruneRawEvents(horizons: [AppID: Int64], batchTarget: Duration) async throws -> RawEventPruning {
        try await client.withOpenConnection { [logger] connection in
            let locked = try await connection.query("SELECT pg_try_advisory_lock(\(Self.pruneLock))", logger: logger)
                .collect(as: Bool.self)[0]
            guard locked else { return RawEventPruning(skipped: true) }
            do {
                let pruning = try await Self.prune(horizons: horizons, connection, logger: logger)
                _ = try await connection.query("SELECT pg_advisory_unlock(\(Self.pruneLock))", logger: logger)
                return pruning
            } catch {
                _ = try? await connection.query("SELECT pg_advisory_unlock(\(Self.pruneLock))", logger: logger)
                throw error
            }
        }
    }

    private static func prune(horizons: [AppID: Int64], _ connection: PostgresConnection, logger: Logger) async throws -> RawEventPruning {
        var pruning = RawEventPruning()
        let clock = ContinuousClock()
        for (app, horizon) in horizons {
            let kept = try await connection.query(
                """
                UPDATE app SET raw_kept_since = greatest(coalesce(raw_kept_since, \(horizon)), \(horizon))
                WHERE id = \(app.rawValue) RETURNING raw_kept_since
                """, logger: logger
            ).collect(as: Int64.self)
            if let keptSince = kept.first { pruning.keptSince[app] = Date(unixMilliseconds: keptSince) }
        }
        // Every id's horizon: none (keeps everything) for apps without a retention.
        var idHorizons: [Int64: Int64?] = [:]
        for id in try await connection.query("SELECT id FROM app", logger: logger).collect(as: Int64.self) {
            let horizon = horizons[AppID(rawValue: id)]
            idHorizons[id] = .some(horizon)
            idHorizons[-id] = .some(horizon)
        }
        let latest = horizons.values.max() ?? 0
        for partition in try await partitions(connection, logger: logger) where partition.milliseconds.upperBound <= latest {
            let start = clock.now
            if let emptied = try await empty(partition, horizons: idHorizons, connection, logger: logger) {
                pruning.record(batch: start.duration(to: clock.now), deleted: emptied)
                pruning.emptiedPartitions.append(partition.table)
            }
        }
        for (app, horizon) in horizons.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            for id in [app, app.debug] {
                while true {
                    try Task.checkCancellation()
                    let start = clock.now
                    let deleted = try await connection.query(
                        """
                        WITH gone AS (
                            DELETE FROM event WHERE app_id = \(id.rawValue) AND (timestamp, sequence) IN (
                                SELECT timestamp, sequence FROM event
                                WHERE app_id = \(id.rawValue) AND timestamp < \(horizon) LIMIT \(pruneDeleteSize))
                            RETURNING 1)
                        SELECT count(*) FROM gone
                        """, logger: logger
                    ).collect(as: Int64.self)[0]
                    pruning.record(batch: start.duration(to: clock.now), deleted: Int(deleted))
                    guard deleted == pruneDeleteSize else { break }
                }
            }
        }
        return pruning
    }

    /// The months whose partition exists.
    private static func partitions(_ connection: PostgresConnection, logger: Logger) async throws -> [EventPartition] {
        try await connection.query(
            """
            SELECT child.relname::text FROM pg_inherits JOIN pg_class child ON child.oid = pg_inherits.inhrelid
            WHERE pg_inherits.inhparent = 'event'::regclass
            """, logger: logger
        ).collect(as: String.self).compactMap(EventPartition.init(table:)).sorted { $0.start < $1.start }
    }

    /// Empties `partition` in one transaction if every id with events in it has a horizon at
    /// or past its end; returns how many events it held, or `nil` if it is kept (or locked
    /// by others for 2 seconds).
    private static func empty(
        _ partition: EventPartition, horizons: [Int64: Int64?], _ connection: PostgresConnection, logger: Logger
    ) async throws -> Int? {
        let end = partition.milliseconds.upperBound
        let keeping = horizons.compactMap { id, horizon in (horizon ?? .min) < end ? id : nil }
        do {
            return try await connection.withTransaction(logger: logger) { connection in
                try await connection.query("SET LOCAL lock_timeout = '2s'", logger: logger)
                try await connection.query(PostgresQuery(unsafeSQL: "LOCK TABLE \(partition.table) IN ACCESS EXCLUSIVE MODE"), logger: logger)
                let kept = try await connection.query(
                    "SELECT EXISTS (SELECT 1 FROM \(unescaped: partition.table) WHERE app_id = ANY(\(keeping)))", logger: logger
                ).collect(as: Bool.self)[0]
                guard !kept else { return nil }
                let count = try await connection.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(partition.table)"), logger: logger)
                    .collect(as: Int64.self)[0]
                try await connection.query(PostgresQuery(unsafeSQL: "TRUNCATE \(partition.table)"), logger: logger)
                return Int(count)
            }
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "55P03" {
            // lock_not_available: readers held the partition; its rows go one by one instead.
            return nil
        }
    }
}

extension EventPartition {
    /// The month whose partition is `table`, `event_yYYYYmMM`; `nil` for another name.
    init?(table: String) {
        guard table.hasPrefix("event_y"), table.utf8.count == 14 else { return nil }
        let digits = table.dropFirst(7)
        guard let year = Int(digits.prefix(4)), digits.dropFirst(4).first == "m", let month = Int(digits.suffix(2)),
            let start = CalendarDay(year: year, month: month, day: 1)
        else { return nil }
        self.init(containing: Int64(start.daysSince1970) * 86_400_000)
    }
}

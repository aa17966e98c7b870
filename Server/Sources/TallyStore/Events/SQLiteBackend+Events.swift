import Foundation
import GRDB
import TallyEvent

extension SQLiteBackend {
    func latestEvents(app: AppID, limit: Int) async throws -> [Event] {
        try await pool.read { db in
            guard try App.fetch(db, id: app) != nil else { throw TallyStoreError.unknownApp(app) }
            return try Row.fetchAll(
                db.cachedStatement(sql: "SELECT \(Event.columns) FROM event WHERE app_id = ? ORDER BY timestamp DESC, rowid DESC LIMIT ?"),
                arguments: [app.rawValue, limit]
            ).map { try Event(row: $0) }
        }
    }

    func userNumbers(app: AppID, users: [String]) async throws -> [String: UInt32] {
        try await pool.read { db in
            let find = try RawStatement(db, sql: "SELECT number FROM app_user WHERE app_id = ?1 AND user_id = ?2")
            find.bind(app.rawValue, at: 1)
            var numbers: [String: UInt32] = [:]
            for user in users {
                find.bind(user, at: 2)
                numbers[user] = try find.executeReturningFirstRow { UInt32($0.int64(at: 0)) }
            }
            return numbers
        }
    }

    /// Pages order by `(timestamp, rowid)`: the cursor's sequence is the `rowid`.
    func events(
        app: AppID, in range: Range<Int64>, after cursor: EventCursor?, limit: Int
    ) async throws -> (events: [Event], last: EventCursor?) {
        try await pool.read { db in
            let start = cursor ?? EventCursor(timestamp: range.lowerBound, sequence: 0)
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Event.columns), rowid FROM event
                    WHERE app_id = ? AND timestamp >= ? AND timestamp < ? AND (timestamp, rowid) > (?, ?)
                    ORDER BY timestamp, rowid LIMIT ?
                    """,
                arguments: [app.rawValue, start.timestamp, range.upperBound, start.timestamp, start.sequence, limit])
            return (try rows.map { try Event(row: $0) }, rows.last.map { EventCursor(timestamp: $0[2], sequence: $0[9]) })
        }
    }

    func exportPage(
        app: AppID, in range: Range<Int64>, after cursor: EventCursor?, limit: Int, format: ExportFormat
    ) async throws -> (bytes: [UInt8], count: Int, last: EventCursor?) {
        try await pool.read { db in
            let start = cursor ?? EventCursor(timestamp: range.lowerBound, sequence: 0)
            let rows = try RawStatement(
                db,
                sql: """
                    SELECT \(Event.columns), rowid FROM event
                    WHERE app_id = ?1 AND timestamp >= ?2 AND timestamp < ?3 AND (timestamp, rowid) > (?2, ?4)
                    ORDER BY timestamp, rowid LIMIT ?5
                    """)
            // `timestamp >= ?2` from the last row read, not from the range's start: it is
            // what the index seeks to, so each page starts where the last one ended.
            for (index, value) in [app.rawValue, start.timestamp, range.upperBound, start.sequence, Int64(limit)].enumerated() {
                rows.bind(value, at: Int32(index + 1))
            }
            var writer = ExportWriter(format: format, app: app.rawValue, capacity: limit * 400)
            var count = 0
            var last: EventCursor?
            while try rows.step() {
                writer.append(rows)
                count += 1
                last = EventCursor(timestamp: rows.int64(at: 2), sequence: rows.int64(at: 9))
            }
            return (writer.bytes, count, last)
        }
    }

    func healthCounts(
        app: AppID, in buckets: Range<Int64>
    ) async throws -> [(outcome: HealthCounts.Outcome, reason: String, count: Int)] {
        try await pool.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT outcome, reason, sum(count) FROM ingest_health
                        WHERE app_id = ? AND bucket >= ? AND bucket < ? GROUP BY outcome, reason
                        """),
                arguments: [app.rawValue, buckets.lowerBound, buckets.upperBound]
            ).compactMap { row in HealthCounts.Outcome(rawValue: row[0]).map { ($0, row[1], row[2]) } }
        }
    }
}

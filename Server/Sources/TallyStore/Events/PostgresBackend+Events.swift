import Foundation
import PostgresNIO
import TallyEvent

extension PostgresBackend {
    /// The columns of ``PostgresEventRow``, then `sequence`.
    static let eventColumns =
        "id, name, timestamp, device_timestamp, user_id, session_id, app_version, platform, properties::text, sequence"

    func latestEvents(app: AppID, limit: Int) async throws -> [Event] {
        guard try await self.app(id: app) != nil else { throw TallyStoreError.unknownApp(app) }
        return try await eventRows(
            """
            SELECT \(unescaped: Self.eventColumns) FROM event WHERE app_id = \(app.rawValue)
            ORDER BY timestamp DESC, sequence DESC LIMIT \(limit)
            """
        ).map { try $0.row.event() }
    }

    func events(
        app: AppID, in range: Range<Int64>, after cursor: EventCursor?, limit: Int
    ) async throws -> (events: [Event], last: EventCursor?) {
        let rows = try await page(app: app, in: range, after: cursor, limit: limit)
        return (try rows.map { try $0.row.event() }, rows.last?.cursor)
    }

    func exportPage(
        app: AppID, in range: Range<Int64>, after cursor: EventCursor?, limit: Int, format: ExportFormat
    ) async throws -> (bytes: [UInt8], count: Int, last: EventCursor?) {
        let rows = try await page(app: app, in: range, after: cursor, limit: limit)
        var writer = ExportWriter(format: format, app: app.rawValue, capacity: rows.count * 400)
        for row in rows { writer.append(row.row) }
        return (writer.bytes, rows.count, rows.last?.cursor)
    }

    func healthCounts(
        app: AppID, in buckets: Range<Int64>
    ) async throws -> [(outcome: HealthCounts.Outcome, reason: String, count: Int)] {
        try await rows(
            """
            SELECT outcome, reason, sum(count)::bigint FROM ingest_health
            WHERE app_id = \(app.rawValue) AND bucket >= \(buckets.lowerBound) AND bucket < \(buckets.upperBound)
            GROUP BY outcome, reason
            """, as: (Int64, String, Int64).self
        ).compactMap { outcome, reason, count in HealthCounts.Outcome(rawValue: outcome).map { ($0, reason, Int(count)) } }
    }

    /// One query through `event_by_time`.
    func userEvents(app: AppID, user: String, at timestamps: [Int64]) async throws -> [(event: Event, cursor: EventCursor)] {
        try await eventRows(
            """
            SELECT \(unescaped: Self.eventColumns) FROM event
            WHERE app_id = \(app.rawValue) AND timestamp = ANY(\(timestamps)) AND user_id = \(user)
            """
        ).map { (try $0.row.event(), $0.cursor) }
    }

    /// Up to `limit` events of `app` in `range` after `cursor`, by timestamp, then sequence.
    private func page(
        app: AppID, in range: Range<Int64>, after cursor: EventCursor?, limit: Int
    ) async throws -> [(row: PostgresEventRow, cursor: EventCursor)] {
        let start = cursor ?? EventCursor(timestamp: range.lowerBound, sequence: -1)
        return try await eventRows(
            """
            SELECT \(unescaped: Self.eventColumns) FROM event
            WHERE app_id = \(app.rawValue) AND timestamp >= \(start.timestamp) AND timestamp < \(range.upperBound)
                AND (timestamp, sequence) > (\(start.timestamp), \(start.sequence))
            ORDER BY timestamp, sequence LIMIT \(limit)
            """)
    }

    /// The events `query` selects with ``eventColumns``.
    func eventRows(_ query: PostgresQuery) async throws -> [(row: PostgresEventRow, cursor: EventCursor)] {
        try await rows(query, as: (UUID, String, Int64, Int64, String, String?, String, String, String, Int64).self).map { row in
            let event = PostgresEventRow(
                id: row.0, name: row.1, timestamp: row.2, deviceTimestamp: row.3, userID: row.4, sessionID: row.5,
                appVersion: row.6, platform: row.7, properties: row.8)
            return (event, EventCursor(timestamp: row.2, sequence: row.9))
        }
    }
}

/// An `event` row read from PostgreSQL, for ``ExportWriter`` or as an ``Event``.
struct PostgresEventRow: ExportRow {
    var id: UUID
    var name: String
    var timestamp: Int64
    var deviceTimestamp: Int64
    var userID: String
    var sessionID: String?
    var appVersion: String
    var platform: String
    var properties: String

    /// The event, its properties decoded.
    ///
    /// - Throws: A `DecodingError` if the stored properties are not a flat JSON object.
    func event() throws -> Event {
        Event(
            id: id, name: name, timestamp: Date(unixMilliseconds: timestamp), deviceTimestamp: Date(unixMilliseconds: deviceTimestamp),
            userID: userID, sessionID: sessionID, appVersion: appVersion, platform: platform,
            properties: try Event.storedProperties(Array(properties.utf8)))
    }

    func int64(at index: Int32) -> Int64 {
        index == 2 ? timestamp : deviceTimestamp
    }

    func withBlob<Result>(at index: Int32, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withUnsafeBytes(of: id.uuid, body)
    }

    func withText<Result>(at index: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        var text =
            switch index {
            case 1: name
            case 4: userID
            case 5: sessionID ?? ""
            case 6: appVersion
            case 7: platform
            default: properties
            }
        return try text.withUTF8(body)
    }

    func isNull(at index: Int32) -> Bool {
        index == 5 && sessionID == nil
    }
}

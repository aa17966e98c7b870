public import Foundation

extension EventStore {
    /// The raw events of `app` whose timestamp is in `from..<to`, as an asynchronous sequence
    /// ordered by timestamp, for exports such as NDJSON (one encoded ``Event`` per line).
    ///
    /// Nothing is read until the sequence is iterated; see ``EventExport`` for paging and
    /// consistency. An unknown app yields no events.
    public func export(app: AppID, from: Date, to: Date) -> EventExport {
        EventExport(pool: pool, app: app, range: from.unixMilliseconds..<max(from, to).unixMilliseconds)
    }
}

extension EventStore {
    /// Events a page of ``write(app:from:to:as:into:)`` reads in one transaction.
    static let writePageSize = 10_000

    /// Writes the raw events of `app` whose timestamp is in `from..<to`, ordered by
    /// timestamp, in `format`, and returns how many it wrote.
    ///
    /// Rows go from SQLite straight into bytes, a page of ``writePageSize`` events per read
    /// transaction; `output` gets each page's bytes (a few MiB) as it is read, so memory stays
    /// flat whatever the range. Only rows are written: a CSV file starts with
    /// ``ExportFormat/csvHeader``. Consistency is that of ``EventExport``.
    public func write(
        app: AppID, from: Date, to: Date, as format: ExportFormat, into output: ([UInt8]) throws -> Void
    ) async throws -> Int {
        let range = from.unixMilliseconds..<max(from, to).unixMilliseconds
        let pageSize = Self.writePageSize
        var after = (timestamp: range.lowerBound, rowID: Int64(0))
        var written = 0
        while true {
            let start = after
            let (bytes, count, last) = try await pool.read { db in
                let rows = try RawStatement(db, sql: """
                    SELECT \(EventExport.columns) FROM event
                    WHERE app_id = ?1 AND timestamp >= ?2 AND timestamp < ?3 AND (timestamp, rowid) > (?2, ?4)
                    ORDER BY timestamp, rowid LIMIT ?5
                    """)
                // `timestamp >= ?2` from the last row read, not from the range's start: it is
                // what the index seeks to, so each page starts where the last one ended.
                for (index, value) in [app.rawValue, start.timestamp, range.upperBound, start.rowID, Int64(pageSize)].enumerated() {
                    rows.bind(value, at: Int32(index + 1))
                }
                var writer = ExportWriter(format: format, app: app.rawValue, capacity: pageSize * 400)
                var count = 0
                var last = start
                while try rows.step() {
                    writer.append(rows)
                    count += 1
                    last = (rows.int64(at: 2), rows.int64(at: 9))
                }
                return (writer.bytes, count, last)
            }
            if count > 0 { try output(bytes) }
            written += count
            guard count == pageSize else { return written }
            after = last
        }
    }
}

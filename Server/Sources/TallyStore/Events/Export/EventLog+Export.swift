public import Foundation

extension EventLog {
    /// The raw events of `app` whose timestamp is in `from..<to`, as an asynchronous sequence
    /// ordered by timestamp, for exports such as NDJSON (one encoded ``Event`` per line).
    ///
    /// Nothing is read until the sequence is iterated; see ``EventExport`` for paging and
    /// consistency. An unknown app yields no events.
    public func export(app: AppID, from: Date, to: Date) -> EventExport {
        EventExport(backend: backend, app: app, range: from.unixMilliseconds..<max(from, to).unixMilliseconds)
    }
}

extension EventLog {
    /// Events a page of ``write(app:from:to:as:into:)`` reads in one transaction.
    static let writePageSize = 10_000

    /// Writes the raw events of `app` whose timestamp is in `from..<to`, ordered by
    /// timestamp, in `format`, and returns how many it wrote.
    ///
    /// Rows go from the database straight into bytes, a page of ``writePageSize`` events per
    /// read transaction; `output` gets each page's bytes (a few MiB) as it is read, so memory
    /// stays flat whatever the range. Only rows are written: a CSV file starts with
    /// ``ExportFormat/csvHeader``. Consistency is that of ``EventExport``.
    public func write(
        app: AppID, from: Date, to: Date, as format: ExportFormat, into output: ([UInt8]) throws -> Void
    ) async throws -> Int {
        let range = from.unixMilliseconds..<max(from, to).unixMilliseconds
        var cursor: EventCursor?
        var written = 0
        while true {
            let page = try await backend.exportPage(app: app, in: range, after: cursor, limit: Self.writePageSize, format: format)
            if page.count > 0 { try output(page.bytes) }
            written += page.count
            guard page.count == Self.writePageSize else { return written }
            cursor = page.last
        }
    }
}

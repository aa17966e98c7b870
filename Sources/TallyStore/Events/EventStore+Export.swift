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

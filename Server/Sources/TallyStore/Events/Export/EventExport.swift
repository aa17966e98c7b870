import Foundation
public import TallyEvent

/// The raw events of an app in a time range, as returned by ``EventLog/export(app:from:to:)``:
/// an asynchronous sequence ordered by timestamp (then by storage order).
///
/// Events are read in pages of ``pageSize``, each in its own short read transaction, so a long
/// export neither holds memory for the whole range nor blocks WAL checkpoints. The sequence is
/// therefore not a snapshot: an event committed during the export appears if its timestamp
/// sorts after the page already read. Each iteration starts over.
public struct EventExport: AsyncSequence, Sendable {
    /// Events are exported as ``Event`` values; `Codable`, so each encodes to one NDJSON line.
    public typealias Element = Event

    /// Events read per transaction.
    public static let pageSize = 1000

    let backend: any EventBackend
    let app: AppID
    let range: Range<Int64>

    /// Starts reading from the beginning of the range.
    public func makeAsyncIterator() -> Iterator {
        Iterator(export: self)
    }

    /// Reads the export one page at a time.
    public struct Iterator: AsyncIteratorProtocol {
        let export: EventExport
        /// Where the last page ended; `nil` before the first.
        var after: EventCursor?
        var page: [Event] = []
        var pageIndex = 0
        var exhausted = false

        /// The next event, or `nil` after the last one.
        ///
        /// - Throws: A database error, or a `DecodingError` if stored properties are corrupt.
        public mutating func next() async throws -> Event? {
            if pageIndex == page.count {
                guard !exhausted else { return nil }
                let (events, last) = try await export.backend.events(
                    app: export.app, in: export.range, after: after, limit: EventExport.pageSize)
                (page, pageIndex, exhausted) = (events, 0, events.count < EventExport.pageSize)
                if let last { after = last }
                if page.isEmpty { return nil }
            }
            defer { pageIndex += 1 }
            var event = page[pageIndex]
            event.isDebug = export.app.isDebug
            return event
        }
    }
}

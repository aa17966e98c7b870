public import ArgumentParser
import Foundation
import TallyStore

/// `tally export --from --to [--format ndjson|csv]`: writes raw events to standard output, and
/// to standard error, for an app whose raw events before an instant after `--from` were pruned,
/// that they are not exported.
struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the raw events of a time range as NDJSON (one JSON object per line) or CSV."
    )

    @Option(help: "The first instant, as an ISO-8601 date (YYYY-MM-DD, UTC midnight) or date-time.")
    var from: String

    @Option(help: "The instant after the last, in the same format.")
    var to: String

    @Option(help: "Only this app (its id); all apps when omitted.")
    var app: Int64?

    @Option(help: "ndjson (the default) or csv (with a header line).")
    var format: ExportFormat = .ndjson

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        guard let start = Self.instant(from), let end = Self.instant(to) else {
            throw ValidationError("--from and --to must be YYYY-MM-DD or an ISO-8601 date-time")
        }
        let store = try await EventStore(database: database.location())
        let apps = try await store.apps.all().filter { app == nil || $0.id.rawValue == app }
        let output = FileHandle.standardOutput
        if format == .csv { try output.write(contentsOf: Array(ExportFormat.csvHeader.utf8)) }
        for app in apps {
            if let keptSince = app.rawEventsKeptSince, keptSince > start {
                let note =
                    "app \(app.id.rawValue): raw events before \(keptSince.formatted(.iso8601)) are no longer kept (retention), so they are not exported\n"
                try FileHandle.standardError.write(contentsOf: Array(note.utf8))
            }
            _ = try await store.events.write(app: app.id, from: start, to: end, as: format) { try output.write(contentsOf: $0) }
        }
    }

    private static func instant(_ text: String) -> Date? {
        (try? Date(text, strategy: .iso8601))
            ?? (try? Date(text + "T00:00:00Z", strategy: .iso8601))
    }
}

// `public import ArgumentParser` above: a conformance of a public type must see its protocol publicly.
extension ExportFormat: ExpressibleByArgument {}

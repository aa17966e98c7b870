import ArgumentParser
import Foundation
import TallyStore

/// `tally export --from --to`: writes raw events as NDJSON to standard output.
struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the raw events of a time range as NDJSON (one JSON object per line)."
    )

    @Option(help: "The first instant, as an ISO-8601 date (YYYY-MM-DD, UTC midnight) or date-time.")
    var from: String

    @Option(help: "The instant after the last, in the same format.")
    var to: String

    @Option(help: "Only this app (its id); all apps when omitted.")
    var app: Int64?

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        guard let start = Self.instant(from), let end = Self.instant(to) else {
            throw ValidationError("--from and --to must be YYYY-MM-DD or an ISO-8601 date-time")
        }
        let store = try EventStore(path: database.db)
        let apps = try await store.apps().filter { app == nil || $0.id.rawValue == app }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted)))
        }
        let output = FileHandle.standardOutput
        for app in apps {
            for try await event in store.export(app: app.id, from: start, to: end) {
                var line = try encoder.encode(ExportLine(app: app.id.rawValue, event: event))
                line.append(0x0A)
                output.write(line)
            }
        }
    }

    private static func instant(_ text: String) -> Date? {
        (try? Date(text, strategy: .iso8601))
            ?? (try? Date(text + "T00:00:00Z", strategy: .iso8601))
    }
}

/// One NDJSON line: the event's fields plus the app it belongs to.
private struct ExportLine: Encodable {
    let app: Int64
    let event: Event

    func encode(to encoder: any Encoder) throws {
        try event.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(app, forKey: .app)
    }

    private enum Key: String, CodingKey {
        case app
    }
}

import ArgumentParser
import Foundation
import TallyStore

/// `tally app …`: manage apps.
struct AppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "Manage apps.",
        subcommands: [Create.self]
    )

    /// `tally app create NAME [--tz Area/City]`: registers an app and prints its keys.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an app and print its ingest key and read token (shown only once)."
        )

        @Argument(help: "The app's display name.")
        var name: String

        @Option(help: "The IANA time zone whose days the metrics use by default.")
        var tz = "UTC"

        @Option(help: "How many days old an event may be and still be accepted.")
        var maxEventAgeDays = App.defaultAcceptedEventAge / 86_400

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let store = try EventStore(path: database.db)
            let created = try await store.createApp(name: name, timeZone: tz, acceptedEventAge: maxEventAgeDays * 86_400)
            say(try KeysOutput(created).json)
        }
    }
}

/// `{"app": ..., "ingest_key": ..., "read_token": ...}`, as `tally app create` prints it.
struct KeysOutput: Encodable {
    let app: String
    let ingestKey: String
    let readToken: String

    init(_ created: NewApp) {
        app = created.app.name
        ingestKey = created.ingestKey
        readToken = created.readToken
    }

    var json: String {
        get throws {
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            encoder.outputFormatting = [.sortedKeys]
            return String(decoding: try encoder.encode(self), as: UTF8.self)
        }
    }
}

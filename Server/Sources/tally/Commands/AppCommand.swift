import ArgumentParser
import Foundation
import TallyStore

/// `tally app …`: manage apps.
struct AppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "Manage apps.",
        subcommands: [Create.self, Update.self, RotateKeys.self]
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
            let store = try await EventStore(database: database.location())
            let created = try await store.createApp(name: name, timeZone: tz, acceptedEventAge: maxEventAgeDays * 86_400)
            say(try KeysOutput(created).json)
        }
    }
}

extension AppCommand {
    /// `tally app update ID [--tz Area/City] [--max-event-age-days N]`: changes an app's
    /// settings; a running server sees them within a second.
    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change an app's time zone or accepted event age.")

        @Argument(help: "The app's id.")
        var id: Int64

        @Option(help: "The IANA time zone whose days the metrics use by default.")
        var tz: String?

        @Option(help: "How many days old an event may be and still be accepted.")
        var maxEventAgeDays: Double?

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let store = try await EventStore(database: database.location())
            let app = try await store.updateApp(AppID(rawValue: id), timeZone: tz, acceptedEventAge: maxEventAgeDays.map { $0 * 86_400 })
            say("app \(app.id.rawValue) (\(app.name)): time zone \(app.timeZone), events accepted up to \(app.acceptedEventAge / 86_400) days old")
        }
    }

    /// `tally app rotate-keys ID`: replaces an app's ingest key and read token and prints them.
    struct RotateKeys: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace an app's ingest key and read token (the old ones stop working; shown only once)."
        )

        @Argument(help: "The app's id.")
        var id: Int64

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let store = try await EventStore(database: database.location())
            say(try KeysOutput(try await store.rotateKeys(AppID(rawValue: id))).json)
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

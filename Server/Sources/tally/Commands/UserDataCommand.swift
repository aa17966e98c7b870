import ArgumentParser
import Foundation
import TallyStore

/// `tally user-data …`: one user's data in an app, exported or deleted.
struct UserDataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user-data",
        abstract: "Export or delete everything stored about one user of an app.",
        subcommands: [Export.self, Delete.self]
    )

    /// The app and the user every subcommand names.
    struct Target: ParsableArguments {
        @Option(help: "The app, by id or name.")
        var app: String

        @Argument(help: "The user's id, as the app sends it.")
        var user: String
    }

    /// `tally user-data export --app APP USER`.
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write everything stored about a user as NDJSON (one JSON object per line).",
            discussion: """
                Lines with "record": "user", "user_property" and "summary" describe the user in each \
                build (debug builds under the negative app id); the other lines are the user's raw \
                events, oldest first, as `tally export` writes them.
                """
        )

        @OptionGroup var target: Target
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let store = try await EventStore(database: database.location())
            let app = try await store.apps.app(named: target.app)
            let output = FileHandle.standardOutput
            _ = try await store.userData.export(app: app.id, user: target.user) { try output.write(contentsOf: $0) }
        }
    }

    /// `tally user-data delete --app APP USER`.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete everything stored about a user, and print the record kept of it.",
            discussion: """
                Deletes the user's raw events, user record, user properties and their share of every \
                rollup, in production and debug builds; every metric then reads as if the user had \
                never sent an event. The record kept (and printed as JSON) has when, by whom ("cli") \
                and how many events, never the user's id. The user's next event makes a new user.
                """
        )

        @OptionGroup var target: Target
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let store = try await EventStore(database: database.location())
            let app = try await store.apps.app(named: target.app)
            let deletion = try await store.userData.delete(app: app.id, user: target.user, by: "cli")
            try await store.userData.foldRemovals()
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            encoder.keyEncodingStrategy = .convertToSnakeCase
            say(String(decoding: try encoder.encode(deletion), as: UTF8.self))
        }
    }
}

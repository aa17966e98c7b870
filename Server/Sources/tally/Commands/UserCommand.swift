import ArgumentParser
import Foundation
import TallyDashboard
import TallyStore

/// `tally user …`: manage the dashboard's users.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Manage who may sign in to the dashboard.",
        subcommands: [Create.self]
    )

    /// `tally user create NAME [--password-stdin]`.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a dashboard user.",
            discussion: """
                Without --password-stdin, generates a password and prints it once as \
                {"user": …, "password": …}. Only a bcrypt hash of the password is stored.
                """
        )

        @Argument(help: "The user's name (1 to 64 characters).")
        var name: String

        @Flag(help: "Read the password from standard input instead of generating one.")
        var passwordStdin = false

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let password: String
            if passwordStdin {
                let input = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
                password = input.hasSuffix("\n") ? String(input.dropLast()) : input
            } else {
                password = DashboardAccess.generatePassword()
            }
            let store = try await EventStore(database: database.location())
            try await DashboardAccess(store: store).createUser(name: name, password: password)
            var output = ["user": name]
            if !passwordStdin { output["password"] = password }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            say(String(decoding: try encoder.encode(output), as: UTF8.self))
        }
    }
}

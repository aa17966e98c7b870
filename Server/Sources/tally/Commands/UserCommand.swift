import ArgumentParser
import Foundation
import TallyDashboard
import TallyStore

/// `tally user …`: manage the dashboard's users.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Manage who may sign in to the dashboard, and their roles in apps.",
        subcommands: [Create.self, Grant.self, Revoke.self]
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

extension UserCommand {
    /// `tally user grant NAME APP ROLE`: gives a user a role in an app, or changes it.
    struct Grant: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give a dashboard user a role in an app, or change it.",
            discussion: """
                A viewer reads the app's dashboard; an editor also changes its saved segments; an \
                owner also manages its members. A user sees only the apps they have a role in. \
                An app keeps at least one owner.
                """
        )

        @Argument(help: "The user's name.")
        var name: String

        @Argument(help: "The app's id or name.")
        var app: String

        @Argument(help: "owner, editor or viewer.")
        var role: String

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            guard let role = AppRole(rawValue: role) else {
                throw MembershipError(description: "unknown role \"\(role.prefix(40))\": expected owner, editor or viewer")
            }
            let store = try await EventStore(database: database.location())
            let (user, app) = (try await store.accounts.dashboardUser(named: name), try await store.apps.app(named: app))
            let previous = try await store.members.setRole(role, of: user.id, in: app.id)
            let change =
                previous.map { $0 == role ? "was already \(role.rawValue)" : "changed from \($0.rawValue) to \(role.rawValue)" }
                ?? "granted \(role.rawValue)"
            say("\(user.name) in app \(app.id.rawValue) (\(app.name)): \(change)")
        }
    }

    /// `tally user revoke NAME APP`: removes a user's role in an app.
    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a dashboard user's role in an app: the user no longer sees the app.",
            discussion: "Open pages of the app close at their next message. The app's last owner cannot be removed."
        )

        @Argument(help: "The user's name.")
        var name: String

        @Argument(help: "The app's id or name.")
        var app: String

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let store = try await EventStore(database: database.location())
            let (user, app) = (try await store.accounts.dashboardUser(named: name), try await store.apps.app(named: app))
            let previous = try await store.members.remove(user.id, from: app.id)
            say("\(user.name) in app \(app.id.rawValue) (\(app.name)): " + (previous.map { "\($0.rawValue) revoked" } ?? "had no role"))
        }
    }
}

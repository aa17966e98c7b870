import ArgumentParser
import Foundation

/// The `tally` command: run the collector, manage apps, export events.
@main
struct Tally: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tally",
        abstract: "Self-hosted analytics for app teams: collector, storage, metrics and dashboard users.",
        subcommands: [Serve.self, AppCommand.self, UserCommand.self, UserDataCommand.self, Export.self]
    )
}

/// The database option every subcommand shares.
struct DatabaseOptions: ParsableArguments {
    /// `--db`'s environment variable and default.
    static let setting = EnvironmentSetting(variable: "TALLY_DB", defaultValue: "tally.sqlite")

    @Option(
        name: .long,
        help: setting.help(
            "The SQLite database file (created if missing), or a PostgreSQL URL: postgres://user[:password]@host[:port]/database."))
    var db: String?

    /// The database to open: `--db`, else `TALLY_DB`, else `tally.sqlite`.
    func location() throws -> String {
        try Self.setting.value(db)
    }
}

/// Writes a line to standard output at once, even when it is a pipe or a file (where
/// `print` would buffer it until exit).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Writes a note for the person at the terminal to standard error, at once, so that
/// standard output keeps only what a script reads.
func note(_ line: String) {
    FileHandle.standardError.write(Data(("tally: " + line + "\n").utf8))
}

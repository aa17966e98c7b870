import Foundation
import TallyServerTesting

/// `tally serve` on a database, as a child process that tests kill and start again on the
/// same port. One still running when its last reference goes is killed.
final class Collector {
    /// The database's path or URL.
    let database: String
    /// The port it listens on: chosen by the system at the first start, kept after.
    private(set) var port = 0
    /// More options of `tally serve`.
    let options: [String]
    private var child: ChildProcess?

    /// Starts `tally serve --db database` with `options` and waits until it listens.
    init(database: String, options: [String] = []) async throws {
        self.database = database
        self.options = options
        try await start()
    }

    /// The collector's address, for an SDK's endpoint.
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Starts the collector (again) and waits until it listens.
    func start() async throws {
        let child = try await ChildProcess("tally", ["serve", "--db", database, "--port", String(port)] + options)
        self.child = child
        port = try await child.listeningPort()
    }

    /// Whether the collector started last still runs.
    var isRunning: Bool { child?.isRunning ?? false }

    /// The running collector's process id.
    var processID: Int32? { child?.id }

    /// Kills the collector with SIGKILL and waits until it is gone.
    func kill() async {
        await child?.kill()
        child = nil
    }
}

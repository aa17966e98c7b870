import ArgumentParser
import Foundation
import Metrics
import NIOCore
import TallyDashboard
import TallyServer
import TallyStore

/// `tally serve`: runs the collector until interrupted.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the collector, its metrics API and the live dashboard.",
        discussion: """
            The dashboard is at the server's root; sign in with a user of `tally user create`. \
            With --demo, also creates a demo app and sends it 60 days of events from a \
            bookkeeping app through the real SDK and HTTP path, creates the dashboard user \
            `demo`, then prints the app's keys, the dashboard's address and the login.
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on.")
    var port = 8080

    @Flag(help: "Create a demo app and fill it with 60 days of events.")
    var demo = false

    @Option(help: "How many users the demo simulates.")
    var demoUsers = DemoData.defaultUsers

    @Option(help: "A dashboard layout file (YAML or JSON) instead of the default sections.")
    var dashboardConfig: String?

    func run() async throws {
        MetricsSystem.bootstrapPrometheus()
        let termination = TerminationWatch()
        defer { termination.cancel() }
        let store = try await EventStore(database: database.db)
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        let layout = try dashboardConfig.map(DashboardLayout.init(contentsOfFile:)) ?? .default
        let collector = try TallyServer(store: store, configuration: configuration)
        let server = await DashboardServer(collector: collector, layout: layout)
        let (ports, running) = AsyncStream.makeStream(of: Int.self)

        try await withThrowingTaskGroup(of: Part.self) { group in
            group.addTask {
                defer { running.finish() }
                try await server.run { running.yield($0) }
                return .server
            }
            var iterator = ports.makeAsyncIterator()
            guard let listeningPort = await iterator.next() else {
                // The server stopped before it listened; its error says why.
                do {
                    _ = try await group.next()
                } catch {
                    throw ListenError(host: host, port: port, error: error)
                }
                return
            }
            termination.serverIsListening()
            let shownHost = host == "0.0.0.0" ? "127.0.0.1" : host.contains(":") ? "[\(host)]" : host
            guard let base = URL(string: "http://\(shownHost):\(listeningPort)") else {
                throw ValidationError("--host \(host) cannot be written in a URL")
            }
            say("tally listening on \(base.absoluteString) (database \(database.db))")
            if demo {
                group.addTask {
                    say(try await DemoData.fill(store: store, server: base, users: demoUsers))
                    let login = try await DemoData.createUser(access: server.access)
                    say("dashboard: \(base.absoluteString)/ (user \(DemoData.userName), \(login))")
                    return .demo
                }
            }
            // Serve until the server stops (SIGTERM, SIGINT), then stop the demo if it still runs.
            while let part = try await group.next(), part != .server {}
            group.cancelAll()
        }
    }

    /// The concurrent parts of `serve`.
    private enum Part {
        case server, demo
    }
}

/// The server could not listen: the address is taken or not this machine's.
struct ListenError: Error, CustomStringConvertible {
    let host: String
    let port: Int
    let error: any Error

    var description: String {
        let reason = (error as? IOError).map { String(cString: strerror($0.errnoCode)) } ?? "\(error)"
        return "cannot listen on \(host):\(port): \(reason)"
    }
}

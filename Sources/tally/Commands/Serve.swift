import ArgumentParser
import Foundation
import TallyServer
import TallyStore

/// `tally serve`: runs the collector until interrupted.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the collector and metrics API.",
        discussion: """
            With --demo, also creates a demo app and sends it 60 days of events from a \
            bookkeeping app through the real SDK and HTTP path, then prints its keys.
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

    func run() async throws {
        let store = try EventStore(path: database.db)
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        let server = TallyServer(store: store, configuration: configuration)
        let (ports, running) = AsyncStream.makeStream(of: Int.self)

        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run { running.yield($0) } }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { return }
            let base = URL(string: "http://\(host == "0.0.0.0" ? "127.0.0.1" : host):\(port)")!
            say("tally listening on \(base.absoluteString) (database \(database.db))")
            if demo {
                let report = try await DemoData.fill(store: store, server: base, users: demoUsers)
                say(report)
            }
            try await group.next()
        }
    }
}

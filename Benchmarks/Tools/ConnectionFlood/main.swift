// Measures issue 28's target: with 20,000 silent or half-open connections from one address,
// `GET /healthz` from another address answers within 100 ms throughout. It serves the
// collector and the dashboard as `tally serve` does (the WebSocket upgrade pipeline, the
// connection guard, the listen backlog) on a fresh SQLite database, probes `/healthz` from
// 127.0.0.2 every 10 ms for 5 s with no other load (the baseline), then again while one thread
// opens 20,000 connections from 127.0.0.1, and prints both side by side:
//
//     swift run -c release ConnectionFlood
//
// The probe and the flood are blocking sockets on threads of their own; the server runs on
// its event loops in the same process, as the system test runs it in a child process.
import Foundation
import TallyApp
import TallyHTTP
import TallyServerTesting
import TallyStore
import TallyStoreTesting

@main
enum ConnectionFloodTool {
    static let connections = 20_000

    static func main() async throws {
        let database = try await TestDatabase.sqlite.makeDatabase()
        defer { TestDatabase.sqlite.removeDatabase(database) }
        var configuration = ServerSettings()
        configuration.port = 0
        configuration.logLevel = .critical
        configuration.requestHeadTimeout = 2
        let served = try await TallyApplication(store: try await EventStore(database: database), settings: configuration).start()
        let port = UInt16(served.port)

        let quiet = await probe(port: port) { try? await Task.sleep(for: .seconds(5)) }
        let flooded = await probe(port: port) {
            let flood = await ConnectionFlood.onThread { ConnectionFlood.run(port: port, connections: connections) }
            try? await Task.sleep(for: .seconds(configuration.requestHeadTimeout + 1))
            print(
                "flood: \(flood.opened) connections opened, \(flood.failed) failed, \(ConnectionFlood.countOpen(flood.held)) still open after the head timeout"
            )
            ConnectionFlood.close(flood.held)
        }
        print("/healthz from another address, ms | answered | unanswered | p50 | p99 | max")
        for (name, latencies) in [("quiet", quiet), ("20,000 connections", flooded)] {
            let sorted = latencies.compactMap(\.self).sorted()
            print(
                "\(name) | \(sorted.count) | \(latencies.count - sorted.count) | \(ConnectionFlood.percentile(sorted, 0.5))"
                    + " | \(ConnectionFlood.percentile(sorted, 0.99)) | \(ConnectionFlood.percentile(sorted, 1))")
        }
        try await served.stop()
    }

    /// The `/healthz` latencies from 127.0.0.2 while `load` runs.
    @MainActor
    static func probe(port: UInt16, during load: () async -> Void) async -> [Double?] {
        let probe = ConnectionFlood.Probe()
        let probing = Task { await ConnectionFlood.onThread { probe.run(port: port) } }
        await load()
        probe.stop()
        return await probing.value
    }
}

// Measures the collector alone on one core: issue 3 asks for 50,000 events/s "on one core".
// The ingest benchmark runs client and server in one process on every core; this tool splits
// them into two processes that can be pinned to different cores:
//
//     swift build -c release --product IngestOnOneCore
//     taskset -c 0 .build/release/IngestOnOneCore serve > /tmp/collector &
//     taskset -c 1 .build/release/IngestOnOneCore load $(cat /tmp/collector)
//
// `serve` starts a collector on a fresh SQLite database with rate limiting off, creates one
// app per load round, prints its URL and the apps' ingest keys on one line, and serves for two
// minutes; `serve postgresql` does the same on a fresh database of the PostgreSQL server
// TALLY_BENCH_POSTGRES_URL names. `load URL KEY…` sends the benchmark's 20,000 events
// (IngestLoad) once per key, over 16 keep-alive connections, and prints each round's rate and
// the median. Either way every event is durable before its batch is acknowledged.
import Foundation
import PipelineWorkload
import TallyServer
import TallyServerTesting
import TallyStore
import TallyStoreTesting

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "serve":
    var configuration = ServerConfiguration()
    configuration.rateLimit = nil
    configuration.addressRateLimit = nil
    let database: String
    switch (arguments.dropFirst().first, Fixtures.Database.fromEnvironment) {
    case (nil, _), ("sqlite", _):
        database = try await TestDatabase.sqlite.makeDatabase()
    case ("postgresql", .postgres(let url)):
        database = try await TestDatabase.createDatabase(on: url)
    default:
        print("usage: IngestOnOneCore serve [sqlite | postgresql] (postgresql needs TALLY_BENCH_POSTGRES_URL)")
        exit(2)
    }
    try await LiveServer.with(store: try await EventStore(database: database), configuration: configuration) { server in
        var keys: [String] = []
        for round in 1...5 { keys.append(try await server.store.createApp(name: "Round \(round)").ingestKey) }
        FileHandle.standardOutput.write(Data("\(server.url.absoluteString) \(keys.joined(separator: " "))\n".utf8))
        try await Task.sleep(for: .seconds(120))
    }
case "load" where arguments.count >= 3:
    let url = URL(string: arguments.dropFirst().first!)!
    _ = IngestLoad.bodies
    var rates: [Double] = []
    for key in arguments.dropFirst(2) {
        let seconds = try await ContinuousClock().measure { try await IngestLoad.post(to: url, key: key) }.seconds
        rates.append(Double(IngestLoad.count) / seconds)
        print("\(IngestLoad.count) events in \(Int(seconds * 1000)) ms: \(Int(rates.last!)) events/s")
    }
    print("median: \(Int(rates.sorted()[rates.count / 2])) events/s")
default:
    print("usage: IngestOnOneCore serve [sqlite | postgresql] | IngestOnOneCore load URL KEY...")
    exit(2)
}

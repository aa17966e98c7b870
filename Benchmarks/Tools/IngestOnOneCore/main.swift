// Measures the collector alone on one core: issue 3 asks for 50,000 events/s "on one core".
// The ingest benchmark runs client and server in one process on every core; this tool splits
// them into two processes that can be pinned to different cores:
//
//     swift build -c release --product IngestOnOneCore
//     taskset -c 0 .build/release/IngestOnOneCore serve > /tmp/collector &
//     taskset -c 1 .build/release/IngestOnOneCore load $(cat /tmp/collector)
//
// `serve` starts a collector on a fresh SQLite database with rate limiting off, creates one
// app per load round, each with two segment properties (`button`, of events, and `plan`, of
// users; the load carries both), prints its URL and the apps' ingest keys on one line, and
// serves for two minutes; `serve postgresql` does the same on a fresh database of the PostgreSQL server
// TALLY_BENCH_POSTGRES_URL names. `load URL KEY…` sends the benchmark's 20,000 events
// (IngestLoad) once per key, over 16 keep-alive connections (TALLY_BENCH_CONNECTIONS=64 for
// 64), and prints each round's rate and the median. Either way every event is durable before
// its batch is acknowledged.
//
// `compare URL KEY…` sends the same events round by round in turn to Tally's route, PostHog's
// `/batch/` and Segment's `/v1/batch` (one key per round), and prints each API's median: the
// compatibility routes' overhead, measured interleaved so that the machine's drift hits all
// three alike. Start the collector with as many apps as rounds, `serve sqlite 15`.
import Foundation
import PipelineWorkload
import TallyHTTP
import TallyServer
import TallyServerTesting
import TallyStore
import TallyStoreTesting

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "serve":
    var configuration = ServerSettings()
    configuration.rateLimit = nil
    configuration.addressRateLimit = nil
    let database: String
    switch (arguments.dropFirst().first, Fixtures.Database.fromEnvironment) {
    case (nil, _), ("sqlite", _):
        database = try await TestDatabase.sqlite.makeDatabase()
    case ("postgresql", .postgres(let url)):
        database = try await TestDatabase.createDatabase(on: url)
    default:
        print("usage: IngestOnOneCore serve [sqlite | postgresql] [apps] (postgresql needs TALLY_BENCH_POSTGRES_URL)")
        exit(2)
    }
    try await LiveServer.with(store: try await EventStore(database: database), configuration: configuration) { server in
        var keys: [String] = []
        let rounds = arguments.dropFirst(2).first.flatMap { Int($0) } ?? 5
        for round in 1...max(rounds, 1) {
            let new = try await server.store.apps.create(name: "Round \(round)")
            // Issue 30's condition: two segment properties, one of each kind, both in the load.
            _ = try await server.store.apps.update(new.app.id, segmentProperties: SegmentProperties(event: ["button"], user: ["plan"]))
            keys.append(new.ingestKey)
        }
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
case "compare" where arguments.count >= 3:
    let url = URL(string: arguments.dropFirst().first!)!
    let apis: [IngestLoad.ForeignAPI?] = [nil] + IngestLoad.ForeignAPI.allCases
    var rates: [String: [Double]] = [:]
    for (round, key) in arguments.dropFirst(2).enumerated() {
        let api = apis[round % apis.count]
        let bodies = api.map { IngestLoad.bodies($0, key: key) } ?? IngestLoad.bodies
        let seconds = try await ContinuousClock().measure {
            if let api { try await IngestLoad.post(bodies, api: api, to: url, key: key) } else { try await IngestLoad.post(to: url, key: key) }
        }.seconds
        let name = api?.rawValue ?? "Tally /v1/events"
        rates[name, default: []].append(Double(IngestLoad.count) / seconds)
        print("\(name): \(IngestLoad.count) events in \(Int(seconds * 1000)) ms")
    }
    for (name, values) in rates.sorted(by: { $0.key < $1.key }) {
        print("\(name): median \(Int(values.sorted()[values.count / 2])) events/s over \(values.count) rounds")
    }
default:
    print("usage: IngestOnOneCore serve [sqlite | postgresql] [apps] | IngestOnOneCore load URL KEY... | IngestOnOneCore compare URL KEY...")
    exit(2)
}

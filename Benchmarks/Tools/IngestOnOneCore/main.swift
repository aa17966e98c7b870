// Measures the collector alone on one core: issue 3 asks for 50,000 events/s "on one core".
// The ingest benchmark runs client and server in one process on every core; this tool splits
// them into two processes that can be pinned to different cores:
//
//     swift build -c release --product IngestOnOneCore
//     taskset -c 0 .build/release/IngestOnOneCore serve > /tmp/collector &
//     taskset -c 1 .build/release/IngestOnOneCore load $(cat /tmp/collector)
//
// `serve` starts a collector on a fresh database with rate limiting off, creates one app per
// load round, prints its URL and the apps' ingest keys on one line, and serves for two
// minutes. `load URL KEY…` sends the benchmark's 20,000 events (IngestLoad) once per key,
// over 16 keep-alive connections, and prints each round's rate and the median.
import Foundation
import PipelineWorkload
import TallyServer
import TallyServerTesting

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "serve":
    var configuration = ServerConfiguration()
    configuration.rateLimit = nil
    try await LiveServer.with(configuration: configuration) { server in
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
    print("usage: IngestOnOneCore serve | IngestOnOneCore load URL KEY...")
    exit(2)
}

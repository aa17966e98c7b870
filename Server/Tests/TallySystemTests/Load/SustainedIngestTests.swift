import Foundation
import TallyEvent
import TallyServerTesting
import TallyStore
import TallyStoreTesting
import Testing

/// A minute of ingest from a separate load generator (Debian's `wrk`, with
/// `Tests/Fixtures/wrk/ingest.lua`) into `tally serve` on loopback: no error, every
/// acknowledged event stored, and the collector's resident memory flat, sampled each second
/// and printed. The same load first warms the collector up, in 15 s rounds until its memory
/// grows by less than 2 MiB over a round (at most 4 minutes): SQLite's page cache (64 MiB
/// per connection) fills as the database grows, and the minute measured starts after that.
@Suite("Sustained ingest", .serialized, .systemTests)
struct SustainedIngestTests {
    static let wrk = ["/usr/bin/wrk", "/usr/local/bin/wrk"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let required = ProcessInfo.processInfo.environment["CI"] == "true"

    @Test(.enabled(if: wrk != nil || required, "needs wrk (.ci/run installs Debian's)"))
    func aMinuteOfIngestHasNoErrorAndFlatMemory() async throws {
        let wrk = try #require(Self.wrk, "wrk is not installed")
        let database = try await TestDatabase.sqlite.makeDatabase()
        defer { TestDatabase.sqlite.removeDatabase(database) }
        let store = try await EventStore(database: database)
        var apps: [NewApp] = []
        for index in 0..<8 { apps.append(try await store.apps.create(name: "Load \(index)")) }
        let collector = try await Collector(database: database)
        let start = Date()
        let keys = apps.map(\.ingestKey)
        var results: [[String: Int]] = []
        var peak = 0
        let warmUpEnd = ContinuousClock.now + .seconds(240)
        while ContinuousClock.now < warmUpEnd {
            let round = try await Self.run(wrk, seconds: 15, against: collector, keys: keys, sampling: true)
            results.append(round.result)
            let roundPeak = round.samples.max() ?? 0
            defer { peak = max(peak, roundPeak) }
            if peak > 0, roundPeak <= peak + 2 << 20 { break }
        }
        let (result, samples) = try await Self.run(wrk, seconds: 60, against: collector, keys: keys, sampling: true)
        results.append(result)
        let mebibytes = samples.map { $0 >> 20 }
        print("collector resident memory, MiB, each second of 60 s of wrk ingest after \(results.count - 1) rounds of warm-up: \(mebibytes)")
        print("wrk: \(result)")

        let requests = results.reduce(0) { $0 + ($1["requests"] ?? 0) }
        #expect(try #require(result["requests"]) > 100)
        for error in ["non2xx", "connect", "read", "write", "timeout"] {
            #expect(results.allSatisfy { $0[error] == 0 }, "\(error) errors")
        }
        // Every answered batch's 50 events are stored; batches wrk abandoned at the end
        // (at most one per connection and run) may be too.
        var stored = 0
        for day in Set([start, Date()].map { $0.formatted(Date.ISO8601FormatStyle().year().month().day()) }) {
            for app in apps {
                stored += try await store.metrics.day(ReadScope(app: app.app.id, day: CalendarDay(day)!)).events["load_test", default: 0]
            }
        }
        #expect(stored >= requests * 50 && stored <= (requests + 16 * results.count) * 50, "\(stored) stored of \(requests) answered batches")
        // Flat: the peak of the second half is within 5% and 8 MiB of the first half's.
        try #require(samples.count >= 50)
        let first = samples[..<30].max()!
        let second = samples[30...].max()!
        #expect(second <= first + first / 20 + 8 << 20, "resident memory grew from \(first >> 20) to \(second >> 20) MiB")
    }

    /// Runs `wrk` with the ingest script against `collector` for `seconds`, sampling the
    /// collector's resident memory each second if asked; returns wrk's result line's numbers.
    /// A request unanswered after 30 s counts as a timeout: the other system suites run beside
    /// this one on CI's two cores, and under them one answer took longer than wrk's default 2 s.
    static func run(
        _ wrk: String, seconds: Int, against collector: Collector, keys: [String], sampling: Bool = false
    ) async throws -> (result: [String: Int], samples: [Int]) {
        let load = try await ChildProcess(
            executable: URL(fileURLWithPath: wrk),
            [
                "-t2", "-c16", "-d\(seconds)s", "--timeout", "30s", "-s",
                try #require(PackageRoot.url()).appending(path: "Tests/Fixtures/wrk/ingest.lua").path,
                collector.url.absoluteString, "--",
            ] + keys)
        var samples: [Int] = []
        while load.isRunning {
            if sampling, let id = collector.processID, let bytes = residentBytes(of: id) { samples.append(bytes) }
            try await Task.sleep(for: .seconds(1))
        }
        let result = try await load.firstLine { line in
            line.hasPrefix("result ")
                ? Dictionary(
                    uniqueKeysWithValues: line.split(separator: " ").dropFirst().compactMap { field in
                        let parts = field.split(separator: "=")
                        return parts.count == 2 ? (String(parts[0]), Int(parts[1]) ?? -1) : nil
                    }) : nil
        }
        return (result, samples)
    }
}

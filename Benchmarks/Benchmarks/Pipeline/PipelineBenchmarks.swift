import Benchmark
import Foundation
import PipelineWorkload
import Synchronization
import TallyEvent
import TallyHTTP
import TallyServer
import TallyServerTesting
import TallyStore
import TallyTracker

// The storage pipeline against issue 3's targets, each beside its floor:
//   ingest   — HTTP batches of 100 over 16 keep-alive connections (LoadClient) to a live
//              collector, acknowledged only once durable (group commit joins concurrent
//              batches), versus the same rows inserted straight into SQLite in one transaction.
//              Each iteration stores IngestLoad.count (20,000) events into a fresh database
//              (events/s = 20,000 / time) and then checks that all of them were counted. The
//              same events sent in PostHog's and Segment's formats to their routes measure
//              what the compatibility APIs cost over the collector's own.
//   metrics  — one day's metrics at 1M and 10M stored events (fixtures cached on disk, see
//              Fixtures), and a 30-day series at 10M.
//   retention — the daily retention matrix of 30 days at 10M.
//   track    — Tracker.track on the caller's thread versus appending to a Mutex-protected array;
//              time per call (1,000 calls per iteration).
//
//     swift package benchmark --target PipelineBenchmarks --no-progress

/// Answers every upload as fully accepted without a network, so the tracker's background
/// uploads stay cheap while `track` is measured.
struct AcceptingTransport: Transport {
    func send(_ request: UploadRequest) async throws -> UploadResponse {
        let body = try JSONSerialization.jsonObject(with: request.body) as? [String: Any]
        let count = (body?["events"] as? [Any])?.count ?? 0
        return UploadResponse(status: 200, body: Data(#"{"accepted":\#(count),"duplicates":0,"rejected":[]}"#.utf8))
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock],
        timeUnits: .milliseconds,
        maxDuration: .seconds(30),
        maxIterations: 30
    )
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tally-pipeline-\(UUID().uuidString)")

    // MARK: ingest

    Benchmark("ingest/HTTP, batches of 100, 16 connections (20k events)") { benchmark in
        var configuration = ServerSettings()
        configuration.rateLimit = nil
        _ = IngestLoad.bodies
        try await LiveServer.with(configuration: configuration) { server in
            let app = try await server.store.apps.create(name: "Bench")
            benchmark.startMeasurement()
            try await IngestLoad.post(to: server.url, key: app.ingestKey)
            benchmark.stopMeasurement()
            try await IngestLoad.checkStored(in: server.store, app: app.app.id)
        }
    }

    // The compatibility routes on the same events, beside Tally's own route: their overhead.
    for api in IngestLoad.ForeignAPI.allCases {
        Benchmark("ingest/HTTP \(api.rawValue), batches of 100, 16 connections (20k events)") { benchmark in
            var configuration = ServerSettings()
            configuration.rateLimit = nil
            try await LiveServer.with(configuration: configuration) { server in
                let app = try await server.store.apps.create(name: "Bench")
                let bodies = IngestLoad.bodies(api, key: app.ingestKey)
                benchmark.startMeasurement()
                try await IngestLoad.post(bodies, api: api, to: server.url, key: app.ingestKey)
                benchmark.stopMeasurement()
                try await IngestLoad.checkStored(in: server.store, app: app.app.id)
            }
        }
    }

    Benchmark("ingest/floor: raw SQLite, 1 transaction (20k events)") { benchmark in
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let path = scratch.appendingPathComponent("floor-\(UUID().uuidString).sqlite").path
        let floor = try IngestLoad.RawFloor(path: path)
        benchmark.startMeasurement()
        try floor.insert()
        benchmark.stopMeasurement()
    }

    // MARK: metrics

    let metricsConfiguration = Benchmark.Configuration(metrics: [.wallClock], timeUnits: .milliseconds, maxIterations: 200)
    for (label, days) in [("1M", 6), ("10M", 60)] {
        for timeZone in ["UTC", "Asia/Kathmandu"] {
            Benchmark("metrics/day at \(label) events, \(timeZone)", configuration: metricsConfiguration) { benchmark in
                let (store, app) = try await Fixtures.store(days: days)
                for iteration in benchmark.scaledIterations {
                    // Rotate over the stored days (the last 30 at most), as dashboards do.
                    let day = Fixtures.date(days - min(days, 30) + iteration % min(days, 30))
                    benchmark.startMeasurement()
                    blackHole(try await store.metrics.day(ReadScope(app: app, day: CalendarDay(day)!, timeZone: TimeZone(identifier: timeZone))))
                    benchmark.stopMeasurement()
                }
            }
        }
    }

    Benchmark("metrics/30-day range at 10M events, Asia/Kathmandu", configuration: metricsConfiguration) { benchmark in
        let (store, app) = try await Fixtures.store(days: 60)
        benchmark.startMeasurement()
        blackHole(
            try await store.metrics.range(
                ReadScope(
                    app: app, days: CalendarDay(Fixtures.date(30))!...CalendarDay(Fixtures.date(59))!,
                    timeZone: TimeZone(identifier: "Asia/Kathmandu"))))
        benchmark.stopMeasurement()
    }

    Benchmark("retention/30x30 daily matrix at 10M events, Asia/Kathmandu", configuration: metricsConfiguration) { benchmark in
        let (store, app) = try await Fixtures.store(days: 60)
        benchmark.startMeasurement()
        blackHole(
            try await store.metrics.retention(
                ReadScope(
                    app: app, days: CalendarDay(Fixtures.date(30))!...CalendarDay(Fixtures.date(59))!,
                    timeZone: TimeZone(identifier: "Asia/Kathmandu"))))
        benchmark.stopMeasurement()
    }

    // MARK: track

    let trackConfiguration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], timeUnits: .nanoseconds, scalingFactor: .kilo,
        maxDuration: .seconds(3), maxIterations: 10_000)
    let tracker = try! Tracker(
        configuration: {
            var configuration = Tracker.Configuration(
                endpoint: URL(string: "http://127.0.0.1:9")!, appKey: "ik_bench",
                storageDirectory: scratch.appendingPathComponent("tracker"))
            configuration.transport = AcceptingTransport()
            configuration.compressesUploads = false
            return configuration
        }())
    let properties: [String: TallyTracker.PropertyValue] = ["button": "buy", "value": 1.5]

    Benchmark("track/Tracker.track", configuration: trackConfiguration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(tracker.track("tap", properties)) }
    }

    Benchmark("track/floor: Mutex-protected array append", configuration: trackConfiguration) { benchmark in
        let buffer = Mutex<[(String, [String: TallyTracker.PropertyValue], Date)]>([])
        for _ in benchmark.scaledIterations { buffer.withLock { $0.append(("tap", properties, Date())) } }
        blackHole(buffer.withLock { $0.count })
    }
}

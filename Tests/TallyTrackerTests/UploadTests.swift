import Foundation
import Testing

@testable import TallyTracker

@Suite("Uploads")
struct UploadTests {
    /// A tracker over `transport` with `names` tracked; returns the tracker and the events' ids.
    private func tracker(
        in directory: URL, transport: FakeTransport, sleeper: RecordingSleeper = RecordingSleeper(),
        tracking names: [String], configure: (inout Tracker.Configuration) -> Void = { _ in }
    ) throws -> (Tracker, [String]) {
        var configuration = testConfiguration(directory, transport: transport, sleeper: sleeper)
        configure(&configuration)
        let tracker = try Tracker(configuration: configuration)
        return (tracker, names.map { tracker.track($0)!.uuidString.lowercased() })
    }

    @Test("Backoff doubles from 1 s up to 5 min, jittered within the upper half of each step")
    func backoffBounds() {
        let backoff = Backoff()
        for failures in 1...20 {
            let step = min(300.0, pow(2, Double(failures - 1)))
            let lowest = backoff.delay(afterFailures: failures, random: 0)
            let highest = backoff.delay(afterFailures: failures, random: 1)
            #expect(lowest == max(1, step / 2))
            #expect(highest == step)
        }
        #expect(backoff.delay(afterFailures: 3, random: 0.5) == 3)
        #expect(backoff.delay(afterFailures: 100, random: 1) == 300)
    }

    @Test("Retries wait per backoff, honour Retry-After on 429 and 503, and resend the same events")
    func retriesFollowBackoffAndRetryAfter() async throws {
        try await withTemporaryDirectory { directory in
            let transport = FakeTransport([
                .status(503, retryAfter: "7"), .networkError, .status(500), .status(429, retryAfter: "2"), .status(401), .ok(),
            ])
            let sleeper = RecordingSleeper(immediate: .max)
            let (tracker, ids) = try tracker(in: directory, transport: transport, sleeper: sleeper, tracking: ["a", "b"])
            let first = await tracker.flush()  // fails; retries continue in the background
            await waitUntil { transport.exchanges.count == 6 }
            let second = await tracker.flush()
            #expect(first.sent + second.sent == 2)
            #expect(first.retried + second.retried == 10)  // five failed attempts of two events
            #expect(second.pending == 0 && first.droppedCount + second.droppedCount == 0)
            // Retry-After 7; then failures 2, 3 by backoff (random 0.5: 3/4 of 2 s, 4 s); Retry-After 2; failure 5 (3/4 of 16 s).
            #expect(sleeper.recorded == [7, 1.5, 3, 2, 12])
            for request in transport.requests {
                #expect(eventObjects(in: request).map { $0["id"] as! String } == ids)
            }
            #expect(transport.deliveredIDs == ids)
        }
    }

    @Test("A delivered batch ends the backoff, though the queue never empties")
    func aDeliveryResetsTheBackoff() async throws {
        try await withTemporaryDirectory { directory in
            let transport = FakeTransport([.status(500), .status(500), .status(500), .ok(), .status(500)], otherwise: .ok())
            let sleeper = RecordingSleeper(immediate: .max)
            let (tracker, ids) = try tracker(in: directory, transport: transport, sleeper: sleeper, tracking: ["a", "b", "c"]) {
                $0.batchSize = 1
            }
            _ = await tracker.flush()
            await waitUntil { transport.deliveredIDs.count == 3 }
            // Failures 1, 2, 3 (random 0.5: 1 s, 3/4 of 2 s, 3/4 of 4 s); "a" delivered; the
            // failure of "b" is a first failure again.
            #expect(sleeper.recorded == [1, 1.5, 3, 1])
            #expect(transport.deliveredIDs == ids)
        }
    }

    @Test("Network errors and 5xx never drop events, however often they repeat")
    func failuresNeverDrop() async throws {
        try await withTemporaryDirectory { directory in
            let transport = FakeTransport([.status(500), .networkError, .status(502), .status(503)], otherwise: .networkError)
            let sleeper = RecordingSleeper(immediate: 12)
            let (tracker, ids) = try tracker(in: directory, transport: transport, sleeper: sleeper, tracking: ["a", "b", "c"])
            _ = await tracker.flush()
            await waitUntil { sleeper.recorded.count == 13 }
            let report = await tracker.flush()
            #expect(report.droppedCount == 0)
            #expect(report.pending == 3)
            #expect(transport.exchanges.count == 13)
            for request in transport.requests {
                #expect(eventObjects(in: request).map { $0["id"] as! String } == ids)
            }
            #expect(sleeper.recorded.last == 300 * 0.75)
        }
    }

    @Test("413 splits the batch in half until it fits; a lone event still too large is dropped and counted")
    func payloadTooLargeSplits() async throws {
        try await withTemporaryDirectory { directory in
            // [a b c d] → 413; [a b] → 413; [a] → ok; [b] → 413, dropped; [c d] → ok
            let transport = FakeTransport([.status(413), .status(413), .ok(), .status(413), .ok()])
            let (tracker, ids) = try tracker(in: directory, transport: transport, tracking: ["a", "b", "c", "d"])
            let report = await tracker.flush()
            #expect(transport.requests.map { eventObjects(in: $0).count } == [4, 2, 1, 1, 2])
            #expect(transport.deliveredIDs == [ids[0], ids[2], ids[3]])
            #expect(report.sent == 3)
            #expect(report.dropped == [.payloadTooLarge: 1])
            #expect(report.pending == 0)
        }
    }

    @Test("On 200, only the events the server names in `rejected` are dropped")
    func perEventRejection() async throws {
        try await withTemporaryDirectory { directory in
            let transport = FakeTransport([.ok(rejected: [1, 3])])
            let (tracker, _) = try tracker(in: directory, transport: transport, tracking: ["a", "b", "c", "d", "e"])
            let report = await tracker.flush()
            #expect(report.sent == 3)
            #expect(report.dropped == [.rejectedByServer: 2])
            #expect(report.pending == 0)
            #expect(await tracker.flush() == FlushReport())  // nothing left to send again
            #expect(transport.exchanges.count == 1)
        }
    }

    @Test("400 drops that batch, counted, and the queue moves on")
    func badRequestDoesNotBlockTheQueue() async throws {
        try await withTemporaryDirectory { directory in
            let transport = FakeTransport([.status(400)])
            let (tracker, ids) = try tracker(in: directory, transport: transport, tracking: ["a", "b", "c", "d"]) {
                $0.batchSize = 2
            }
            let report = await tracker.flush()
            #expect(report.dropped == [.badRequest: 2])
            #expect(report.sent == 2)
            #expect(transport.deliveredIDs == Array(ids[2...]))
        }
    }

    @Test("Uploads report the drops counted since the last delivered upload, except the server's own rejections")
    func uploadsReportDrops() async throws {
        try await withTemporaryDirectory { directory in
            // [a b c d] → 413; [a b] → 413; [a] → ok, a rejected; [b] → 413, dropped; [c d] → ok;
            // [e] → 400, dropped; [f] → ok; [g] → ok.
            let transport = FakeTransport([.status(413), .status(413), .ok(rejected: [0]), .status(413), .ok(), .status(400)])
            let (tracker, _) = try tracker(in: directory, transport: transport, tracking: ["a", "b", "c", "d"])
            _ = await tracker.flush()
            for name in ["e", "f", "g"] {
                tracker.track(name)
                _ = await tracker.flush()
            }
            let reported = transport.requests.map { bodyObject(of: $0)["dropped"] as? [String: Int] }
            #expect(reported == [nil, nil, nil, nil, ["payload-too-large": 1], nil, ["bad-request": 1], nil])
        }
    }

    @Test("Batches hold at most batchSize events, oldest first")
    func batching() async throws {
        try await withTemporaryDirectory { directory in
            let transport = FakeTransport()
            let (tracker, ids) = try tracker(in: directory, transport: transport, tracking: (0..<7).map { "e\($0)" }) {
                $0.batchSize = 3
            }
            #expect(await tracker.flush().sent == 7)
            #expect(transport.requests.map { eventObjects(in: $0).count } == [3, 3, 1])
            #expect(transport.deliveredIDs == ids)
        }
    }

    @Test("Compressed uploads carry Content-Encoding: gzip and decompress with the system gzip")
    func gzipUploads() async throws {
        try await withTemporaryDirectory { directory in
            let transport = FakeTransport()
            let (tracker, ids) = try tracker(in: directory, transport: transport, tracking: ["a", "b"]) {
                $0.compressesUploads = true
            }
            #expect(await tracker.flush().sent == 2)
            let request = try #require(transport.requests.first)
            #expect(request.headers["Content-Encoding"] == "gzip")
            #expect(request.body.prefix(2) == Data([0x1F, 0x8B]))
            let events = try #require(try JSONSerialization.jsonObject(with: gunzip(request.body)) as? [String: Any])["events"]
            #expect((events as? [[String: Any]])?.map { $0["id"] as! String } == ids)
        }
    }
}

import Foundation
@_spi(Wire) import TallyEvent
import Testing

@testable import TallyTracker

@Suite("On-disk queue")
struct QueueTests {
    @Test("A new tracker on the same directory resends unacknowledged events, never acknowledged ones")
    func restartResendsOnlyUnacknowledged() async throws {
        try await withTemporaryDirectory { directory in
            let anonymousID: String
            var unacknowledged: [String] = []
            do {
                let transport = FakeTransport([.ok(), .networkError])
                let tracker = try Tracker(configuration: testConfiguration(directory, transport: transport))
                anonymousID = tracker.anonymousID
                for name in ["a", "b", "c"] { tracker.track(name) }
                #expect(await tracker.flush().sent == 3)
                for name in ["d", "e"] { unacknowledged.append(tracker.track(name)!.uuidString.lowercased()) }
                let report = await tracker.flush()
                #expect(report.retried == 2 && report.pending == 2)
            }
            let transport = FakeTransport()
            let tracker = try Tracker(configuration: testConfiguration(directory, transport: transport))
            #expect(tracker.anonymousID == anonymousID)
            let report = await tracker.flush()
            #expect(report.sent == 2)
            #expect(transport.deliveredIDs == unacknowledged)
        }
    }

    @Test("A torn trailing line left by a crash is skipped; the complete lines are delivered")
    func tornTrailingLine() async throws {
        try await withTemporaryDirectory { directory in
            var ids: [String] = []
            do {
                let tracker = try Tracker(configuration: testConfiguration(directory, transport: FakeTransport(otherwise: .networkError)))
                for name in ["a", "b"] { ids.append(tracker.track(name)!.uuidString.lowercased()) }
                _ = await tracker.flush()
            }
            let segments = StorageDirectory(url: directory).segments
            let segment = try #require(try FileManager.default.contentsOfDirectory(at: segments, includingPropertiesForKeys: nil).first)
            let handle = try FileHandle(forWritingTo: segment)
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(#"{"id":"0b4c1f4e-5d7a-4f7e-9a3e-1c2d3e4f5a6b","name":"tor"#.utf8))
            try handle.close()

            let transport = FakeTransport()
            let tracker = try Tracker(configuration: testConfiguration(directory, transport: transport))
            ids.append(tracker.track("c")!.uuidString.lowercased())
            let report = await tracker.flush()
            #expect(report.sent == 3 && report.droppedCount == 0)
            #expect(transport.deliveredIDs == ids)
        }
    }

    @Test("Past the byte cap the oldest events are dropped and counted, durably")
    func byteCap() async throws {
        try await withTemporaryDirectory { directory in
            let statistics = Statistics()
            let now = Date()
            let lines = (0..<5).map { index in
                let line = Data(#"{"id":"\#(index)","timestamp":"\#(now.formatted(.wire()))","pad":"\#(String(repeating: "x", count: 40))"}"#.utf8)
                return (line: line, timestamp: now)
            }
            let size = lines[0].line.count
            func open() throws -> DiskQueue {
                try DiskQueue(
                    folder: directory.appendingPathComponent("segments"), cursorFile: directory.appendingPathComponent("cursor"),
                    maxBytes: 2 * size + size / 2, maxAge: 3600, statistics: statistics, now: now
                )
            }
            let queue = try open()
            queue.append(lines, now: now)
            #expect(queue.peek(limit: 10).map(\.line) == lines[3...].map(\.line))
            #expect(statistics.take(pending: 0).dropped == [.cappedBytes: 3])

            let reopened = try open()
            #expect(reopened.peek(limit: 10).map(\.line) == lines[3...].map(\.line))
        }
    }

    @Test("Events older than the age cap are dropped, oldest first, and counted")
    func ageCap() async throws {
        try await withTemporaryDirectory { directory in
            let clock = ManualClock()
            do {
                var configuration = testConfiguration(directory, transport: FakeTransport(otherwise: .networkError), clock: clock)
                configuration.maxEventAge = 3600
                let tracker = try Tracker(configuration: configuration)
                tracker.track("old")
                #expect(await tracker.flush().pending == 1)
            }
            clock.advance(minutes: 30)
            let transport = FakeTransport()
            var configuration = testConfiguration(directory, transport: transport, clock: clock)
            configuration.maxEventAge = 3600
            let tracker = try Tracker(configuration: configuration)
            let fresh = try #require(tracker.track("fresh"))
            clock.advance(minutes: 45)  // "old" is 75 minutes old, "fresh" 45
            let report = await tracker.flush()
            #expect(report.dropped == [.tooOld: 1])
            #expect(report.sent == 1)
            #expect(transport.deliveredIDs == [fresh.uuidString.lowercased()])
        }
    }

    @Test("Segment files are deleted once every event in them is acknowledged")
    func settledSegmentsAreDeleted() async throws {
        try await withTemporaryDirectory { directory in
            let folder = directory.appendingPathComponent("segments")
            let now = Date()
            let line = Data(#"{"timestamp":"\#(now.formatted(.wire()))","pad":"\#(String(repeating: "x", count: 60))"}"#.utf8)
            let queue = try DiskQueue(
                folder: folder, cursorFile: directory.appendingPathComponent("cursor"), maxBytes: 1 << 20, maxAge: 3600,
                segmentSize: 2 * line.count, statistics: Statistics(), now: now
            )
            queue.append(Array(repeating: (line: line, timestamp: now), count: 6), now: now)
            func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() }
            #expect(try files() == ["1.ndjson", "2.ndjson", "3.ndjson"])

            queue.acknowledge(queue.peek(limit: 3)[...])  // all of segment 1, half of segment 2
            #expect(try files() == ["2.ndjson", "3.ndjson"])
            queue.acknowledge(queue.peek(limit: 1)[...])
            #expect(try files() == ["3.ndjson"])
        }
    }
}

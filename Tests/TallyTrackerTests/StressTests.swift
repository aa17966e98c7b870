import Foundation
import Locking
import Testing

@testable import TallyTracker

@Suite("Concurrency")
struct StressTests {
    @Test("8 threads tracking at once: every event is delivered exactly once")
    func concurrentTracking() async throws {
        try await withTemporaryDirectory { directory in
            let threads = 8
            let perThread = 2500
            let transport = FakeTransport()
            var configuration = testConfiguration(directory, transport: transport)
            configuration.batchSize = 500  // small enough for background uploads to run meanwhile
            configuration.maxQueueBytes = 64 << 20
            let tracker = try Tracker(configuration: configuration)

            let tracked = Locked<[String]>([])
            let group = DispatchGroup()
            for thread in 0..<threads {
                group.enter()
                Thread {
                    var ids: [String] = []
                    for index in 0..<perThread {
                        ids.append(tracker.track("stress", ["thread": .int(thread), "index": .int(index)])!.uuidString.lowercased())
                    }
                    tracked.withLock { $0 += ids }
                    group.leave()
                }.start()
            }
            await withCheckedContinuation { continuation in group.notify(queue: .global()) { continuation.resume() } }
            let report = await tracker.flush()

            let expected = tracked.withLock { $0 }
            let delivered = transport.deliveredIDs
            #expect(expected.count == threads * perThread)
            #expect(Set(expected).count == expected.count)
            #expect(delivered.count == expected.count)
            #expect(Set(delivered) == Set(expected))
            #expect(report.sent == expected.count && report.pending == 0 && report.droppedCount == 0)
        }
    }
}

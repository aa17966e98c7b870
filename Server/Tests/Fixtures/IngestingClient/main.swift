// Test fixture for the crash tests in TallySystemTests: one app's SDK, in its own process.
//
//     IngestingClient <endpoint> <app-key> <storage-directory>
//
// Tracks 10 events every 10 ms with the real tracker and HTTP transport until its standard
// input closes, then flushes until its queue is empty and exits. Prints, one per line:
//   `t <id>`     an event tracked (as soon as `track` returns);
//   `s <total>`  how many events the server has acknowledged so far, after every flush;
//   `d <total>`  how many events the tracker dropped, if any;
//   `done`       the queue is empty.
// Uploads that fail (the collector killed, its database stopped) are retried after at most
// 200 ms, so a restarted collector receives them at once.
import Foundation
import Synchronization
import TallyTracker

/// Set once standard input reaches its end.
let inputClosed = Atomic(false)

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Tracks until standard input closes, then drains the queue.
@MainActor func run() async throws {
    let arguments = CommandLine.arguments
    guard arguments.count == 4, let endpoint = URL(string: arguments[1]) else {
        FileHandle.standardError.write(Data("usage: IngestingClient <endpoint> <app-key> <storage-directory>\n".utf8))
        exit(64)
    }
    var configuration = Tracker.Configuration(
        endpoint: endpoint, appKey: arguments[2], storageDirectory: URL(fileURLWithPath: arguments[3], isDirectory: true))
    configuration.batchSize = 50
    configuration.uploadInterval = 0.05
    configuration.sleep = { try await Task.sleep(for: .seconds(min($0, 0.2))) }
    configuration.tracksAppLifecycle = false
    configuration.isDebug = false
    let tracker = try Tracker(configuration: configuration)
    Thread.detachNewThread {
        while !FileHandle.standardInput.availableData.isEmpty {}
        inputClosed.store(true, ordering: .releasing)
    }

    var sent = 0
    var dropped = 0
    func flush() async -> Int {
        let report = await tracker.flush()
        sent += report.sent
        say("s \(sent)")
        if report.droppedCount > 0 {
            dropped += report.droppedCount
            say("d \(dropped)")
        }
        return report.pending
    }

    var index = 0
    while !inputClosed.load(ordering: .acquiring) {
        for _ in 0..<10 {
            guard let id = tracker.track("crash_test", ["index": .int(index)]) else { exit(1) }
            say("t \(id.uuidString)")
            index += 1
        }
        try await Task.sleep(for: .milliseconds(10))
        if index % 100 == 0 { _ = await flush() }
    }
    while await flush() > 0 {
        try await Task.sleep(for: .milliseconds(50))
    }
    say("done")
}

try await run()

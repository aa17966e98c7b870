import Foundation
import Locking
import Testing

@testable import TallyTracker

/// A clock that moves only when told.
final class ManualClock: Sendable {
    private let date = Locked(Date(timeIntervalSince1970: 1_795_000_000))

    func now() -> Date { date.withLock { $0 } }
    func advance(minutes: Double) { date.withLock { $0.addTimeInterval(minutes * 60) } }
}

/// Records requested delays. The first `immediate` calls return at once; later ones wait
/// until the task is cancelled, as a real long backoff would, so nothing spins.
final class RecordingSleeper: Sendable {
    private let delays = Locked<[TimeInterval]>([])
    private let immediate: Int

    init(immediate: Int = 0) { self.immediate = immediate }

    var recorded: [TimeInterval] { delays.withLock { $0 } }

    func sleep(_ delay: TimeInterval) async throws {
        let calls = delays.withLock {
            $0.append(delay)
            return $0.count
        }
        if calls > immediate { try await Task.sleep(seconds: 86_400) }
    }
}

/// A configuration for tests: fake transport, no compression, no timed uploads, no real
/// backoff waits, fixed jitter, no lifecycle events (and a private notification center for
/// tests that turn them on).
func testConfiguration(
    _ directory: URL, transport: FakeTransport, clock: ManualClock? = nil, sleeper: RecordingSleeper = RecordingSleeper()
) -> Tracker.Configuration {
    var configuration = Tracker.Configuration(
        endpoint: URL(string: "https://tally.example/api")!, appKey: "test-key", storageDirectory: directory
    )
    configuration.transport = transport
    configuration.compressesUploads = false
    configuration.uploadInterval = 3600
    configuration.appVersion = "1.2.3"
    configuration.platform = "testOS"
    configuration.sleep = { try await sleeper.sleep($0) }
    configuration.random = { 0.5 }
    configuration.tracksAppLifecycle = false
    configuration.notificationCenter = NotificationCenter()
    if let clock { configuration.now = { clock.now() } }
    return configuration
}

/// Runs `body` with a fresh directory, removed afterwards.
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async rethrows -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-tracker-tests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}

/// Everything the tracker stored under `directory`, as text.
func storedText(in directory: URL) throws -> String {
    let files = try FileManager.default.subpathsOfDirectory(atPath: directory.path).map { directory.appendingPathComponent($0) }
    return files.compactMap { try? String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
}

/// Waits until `condition` holds, recording an issue if it does not within 20 s.
func waitUntil(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async {
    for _ in 0..<2000 {
        if condition() { return }
        try? await Task.sleep(seconds: 0.01)
    }
    Issue.record("Condition not met in time", sourceLocation: sourceLocation)
}

/// Decompresses `data` with the system's `gzip -d`, which also verifies the CRC and size.
///
/// The result is read from a file, not a pipe: Foundation's pipe reads trap when a signal
/// (another test's child exiting) interrupts them.
func gunzip(_ data: Data) throws -> Data {
    let decompressed = FileManager.default.temporaryDirectory.appendingPathComponent("tally-gzip-\(UUID().uuidString)")
    let file = decompressed.appendingPathExtension("gz")
    try data.write(to: file)
    defer { for url in [file, decompressed] { try? FileManager.default.removeItem(at: url) } }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["gzip", "-d", file.path]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw CocoaError(.fileReadCorruptFile) }
    return try Data(contentsOf: decompressed)
}

import Foundation
import Synchronization
import TallyServerTesting

/// An app's SDK in its own process (the `IngestingClient` fixture): it tracks events without
/// pause and uploads them to a collector until ``finish()``.
struct SDKClient {
    private let printed = Printed()
    private let child: ChildProcess

    /// Starts tracking, uploading to `collector` with the ingest key `key`.
    init(collector: URL, key: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-sdk-\(UUID().uuidString)")
        child = try await ChildProcess("IngestingClient", [collector.absoluteString, key, folder.path]) { [printed] in printed.take($0) }
    }

    /// Starts `count` clients uploading to `collector`.
    static func start(_ count: Int, collector: URL, key: String) async throws -> [SDKClient] {
        var clients: [SDKClient] = []
        for _ in 0..<count { clients.append(try await SDKClient(collector: collector, key: key)) }
        return clients
    }

    /// The ids of the events tracked so far, in lowercase.
    var tracked: [String] { printed.state.withLock { $0.tracked } }

    /// How many events the collector has acknowledged so far.
    var acknowledged: Int { printed.state.withLock { $0.acknowledged } }

    /// How many events the SDK dropped.
    var dropped: Int { printed.state.withLock { $0.dropped } }

    /// Stops tracking and waits until every tracked event has been delivered.
    func finish(within limit: Duration = .seconds(120)) async throws {
        child.closeInput()
        let deadline = ContinuousClock.now + limit
        while !printed.state.withLock(\.done) {
            guard ContinuousClock.now < deadline else { throw child.timeout(after: limit) }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// What the client has printed, as it comes.
    private final class Printed: Sendable {
        struct State {
            var tracked: [String] = []
            var acknowledged = 0
            var dropped = 0
            var done = false
        }

        let state = Mutex(State())

        /// Takes one line of the client's output (see the fixture's header).
        func take(_ line: String) {
            state.withLock { state in
                switch line.prefix(2) {
                case "t ": state.tracked.append(line.dropFirst(2).lowercased())
                case "s ": state.acknowledged = Int(line.dropFirst(2)) ?? state.acknowledged
                case "d ": state.dropped = Int(line.dropFirst(2)) ?? state.dropped
                default: if line == "done" { state.done = true }
                }
            }
        }
    }
}

extension [SDKClient] {
    /// How many events the collectors have acknowledged to all clients.
    var acknowledged: Int { reduce(0) { $0 + $1.acknowledged } }

    /// Waits until the collectors have acknowledged `count` more events than now.
    func waitForAcknowledgements(_ count: Int, within limit: Duration = .seconds(60)) async throws {
        let target = acknowledged + count
        let deadline = ContinuousClock.now + limit
        while acknowledged < target {
            guard ContinuousClock.now < deadline else { throw NoProgress(acknowledged: acknowledged, awaited: target) }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The clients' acknowledgements stopped growing.
    struct NoProgress: Error, CustomStringConvertible {
        let acknowledged: Int
        let awaited: Int
        var description: String { "the collectors acknowledged \(acknowledged) events; \(awaited) were awaited" }
    }
}

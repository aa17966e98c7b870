import Logging
import ServiceLifecycle

/// A ``TallyApplication`` listening in the background, as the tests and the benchmarks run it:
/// ``stop()`` shuts it down gracefully.
///
/// ```swift
/// let serving = try await application.start()
/// // … requests to 127.0.0.1:serving.port …
/// try await serving.stop()
/// ```
public struct ServingApplication: Sendable {
    /// What is served.
    public let application: TallyApplication
    /// The port it listens on.
    public let port: Int
    let group: ServiceGroup
    let running: Task<Void, any Error>

    /// Stops serving, gracefully: the server finishes every connection it accepted, including
    /// those of requests a client gave up on (cancelling a Hummingbird server instead traps in
    /// swift-nio, "Deinited NIOAsyncWriter without calling finish()", when a connection was
    /// accepted but not yet served), and the services end their rounds.
    ///
    /// - Throws: The error the server stopped with, if any.
    public func stop() async throws {
        await group.triggerGracefulShutdown()
        try await running.value
    }
}

extension TallyApplication {
    /// Starts serving in the background and returns once the server listens.
    ///
    /// - Throws: The server's error if it stopped before it listened (the port is taken, say).
    public func start() async throws -> ServingApplication {
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "tally.serving")
        logger.logLevel = settings.logLevel
        let group = ServiceGroup(services: [build { listening.yield($0) }], gracefulShutdownSignals: [], logger: logger)
        let running = Task {
            defer { listening.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            try await running.value  // the server stopped before it listened: its error says why
            throw CancellationError()
        }
        return ServingApplication(application: self, port: port, group: group, running: running)
    }
}

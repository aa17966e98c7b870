import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// A webhook receiver on a free loopback port: `POST /hook` records each request and answers
/// the status `answer` gives for its index (0 for the first), `GET /hang` never answers
/// within a test's patience, and `POST /redirect` answers 302 to `/hook`.
struct WebhookReceiver: Sendable {
    /// One request as received, its header names in lower case.
    struct Received: Sendable {
        var headers: [String: String]
        var body: [UInt8]
        var at: Date
    }

    /// The requests so far.
    actor Log {
        private(set) var received: [Received] = []
        func append(_ request: Received) -> Int {
            received.append(request)
            return received.count - 1
        }
    }

    let port: Int
    let log: Log

    /// `http://127.0.0.1:<port><path>`.
    func url(_ path: String = "/hook") -> String { "http://127.0.0.1:\(port)\(path)" }

    static func with<Result: Sendable>(
        answer: @escaping @Sendable (Int) -> HTTPResponse.Status = { _ in .ok }, _ body: (WebhookReceiver) async throws -> Result
    ) async throws -> Result {
        let log = Log()
        let router = Router()
        router.post("/hook") { request, _ -> Response in
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            let bytes = Array(buffer: try await request.body.collect(upTo: 1 << 20))
            let index = await log.append(Received(headers: headers, body: bytes, at: Date()))
            return Response(status: answer(index), body: .init(byteBuffer: ByteBuffer(string: "ok")))
        }
        router.post("/redirect") { _, _ -> Response in
            Response(status: .found, headers: [.location: "/hook"])
        }
        router.post("/hang") { _, _ -> Response in
            try? await Task.sleep(for: .seconds(5))
            return Response(status: .ok)
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "webhook-receiver")
        logger.logLevel = .critical
        let application = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
        let group = ServiceGroup(services: [application], gracefulShutdownSignals: [], logger: logger)
        let running = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            try await running.value
            throw CancellationError()
        }
        let outcome: Swift.Result<Result, any Error>
        do {
            outcome = .success(try await body(WebhookReceiver(port: port, log: log)))
        } catch {
            outcome = .failure(error)
        }
        await group.triggerGracefulShutdown()
        _ = await running.result
        return try outcome.get()
    }
}

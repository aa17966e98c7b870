public import Componentry
import Foundation
public import Hummingbird
import Logging
public import TallyStore

/// The collector: the HTTP API over an ``EventStore``.
///
/// ```swift
/// let store = try EventStore(path: "tally.sqlite")
/// let server = TallyServer(store: store)
/// try await server.run()
/// ```
///
/// Routes (the HTTP contract other programs depend on):
/// - `POST /v1/events` with `X-App-Key`: a batch of events, optionally gzip-encoded.
/// - `GET /v1/metrics?date=…[&tz=…]` and `GET /v1/metrics/range?from=…&to=…[&tz=…]` with
///   `Authorization: Bearer <read token>`.
/// - `GET /healthz`.
///
/// Every committed batch is announced on ``bus`` as ``EventsIngested``.
public struct TallyServer: Sendable {
    /// Where events and apps live.
    public let store: EventStore
    /// Limits, address and clock.
    public let configuration: ServerConfiguration
    /// The bus on which the server announces ingested events.
    public let bus: EventBus

    /// Creates a server over `store`.
    public init(store: EventStore, configuration: ServerConfiguration = .init(), bus: EventBus = EventBus()) {
        self.store = store
        self.configuration = configuration
        self.bus = bus
    }

    /// The router with every route of the API, for embedding in a larger application.
    public func router() -> Router<BasicRequestContext> {
        let apps = AppDirectory(store: store)
        let ingest = IngestController(
            store: store, apps: apps, limiter: configuration.rateLimit.map(RateLimiter.init), configuration: configuration, bus: bus
        )
        let metrics = MetricsController(store: store, apps: apps)
        let router = Router()
        router.post("/v1/events") { request, _ in try await ingest.ingest(request) }
        router.get("/v1/metrics") { request, _ in try await metrics.day(request) }
        router.get("/v1/metrics/range") { request, _ in try await metrics.range(request) }
        router.get("/healthz") { _, _ in try Response.json(["status": "ok"]) }
        return router
    }

    /// Serves until the task is cancelled or the process receives SIGINT or SIGTERM.
    ///
    /// - Parameter onRunning: Called once the server listens, with the bound port (useful
    ///   with port 0).
    public func run(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        var logger = Logger(label: "tally.server")
        logger.logLevel = configuration.logLevel
        let application = Application(
            router: router(),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "tally"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        try await application.runService()
    }
}

import Componentry
import Hummingbird
import HummingbirdWebSocket
import Logging
import TallyDashboard
import TallyHTTP
import TallyServer
import TallyStore

/// The collector's and the dashboard's routes on one application over a store, the store's
/// commits posted on the dashboard's bus: what `tally serve` mounts (its composition lives in
/// the `tally` executable, which a benchmark cannot link), listening on a free port.
public struct ServedApplication: Sendable {
    /// The dashboard's routes and live pages.
    public let dashboard: DashboardServer
    /// The port it listens on.
    public let port: Int
    private let serving: Task<Void, any Error>

    /// Starts the application over `store` with `settings` (its port is ignored: a free one).
    @MainActor
    public static func start(
        store: EventStore, settings: ServerSettings, access: DashboardAccess? = nil, socketLimits: SocketLimits = .init()
    ) async throws -> ServedApplication {
        var settings = settings
        settings.port = 0
        let bus = EventBus()
        let collector = try TallyServer(store: store, settings: settings)
        let dashboard = DashboardServer(
            store: store, bus: bus, access: access, trustedProxies: settings.trustedProxies, socketLimits: socketLimits,
            reads: collector.reads)
        let router = Router(context: DashboardRequestContext.self)
        router.add(middleware: SecurityHeadersMiddleware())
        collector.addRoutes(to: router)
        dashboard.addRoutes(to: router)
        let sockets = dashboard.webSocketRouter().buildResponder()
        var logger = Logger(label: "tally.benchmark")
        logger.logLevel = settings.logLevel
        let (ports, running) = AsyncStream.makeStream(of: Int.self)
        let http1 = settings.http1
        let application = Application(
            router: router,
            server: settings.server {
                HTTP1WebSocketUpgradeChannel(responder: $0, webSocketResponder: sockets, configuration: .init(http1: http1))
            },
            configuration: settings.application(logger: logger), services: dashboard.services,
            onServerRunning: { channel in running.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        let serving = Task {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { for await commit in store.commits() { bus.post(commit) } }
                group.addTask { try await application.runService() }
            }
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CancellationError() }
        return ServedApplication(dashboard: dashboard, port: port, serving: serving)
    }

    /// Stops serving.
    public func stop() async {
        serving.cancel()
        _ = await serving.result
    }
}

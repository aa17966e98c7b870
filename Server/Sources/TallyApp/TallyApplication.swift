public import Componentry
public import Hummingbird
import HummingbirdWebSocket
import Logging
import ServiceLifecycle
public import TallyDashboard
public import TallyHTTP
public import TallyServer
public import TallyStore

/// The one composition of Tally: the collector's API and the live dashboard mounted on one
/// Hummingbird application over one store, the store's commits forwarded onto the bus the
/// dashboard hears, and the services that keep the store (pruning, deletions' folding, alerts).
///
/// `tally serve` runs it, the HTTP tests test it (through HummingbirdTesting, or listening on
/// a free port with `LiveServer`) and the benchmarks measure it:
///
/// ```swift
/// let application = try await TallyApplication(store: store, settings: settings)
/// try await application.build().runService()
/// ```
public struct TallyApplication: Sendable {
    /// Where events, apps and users live.
    public let store: EventStore
    /// Limits, address and clock.
    public let settings: ServerSettings
    /// Where the store's commits are posted (``CommitForwarder``) and the dashboard hears them.
    public let bus = EventBus()
    /// The ingest and metrics API.
    public let collector: TallyServer
    /// The dashboard's routes.
    public let dashboard: DashboardServer
    /// The alert rules' evaluation and their webhooks.
    let alerts: AlertServices

    /// The application over `store`, with `settings`; the dashboard shows `layout` to the
    /// users of `access` (by default the store's), with `Secure` cookies when `secureCookies`.
    ///
    /// - Throws: ``ConfigurationError`` if a setting is out of range.
    @MainActor
    public init(
        store: EventStore, settings: ServerSettings, layout: DashboardLayout = .default, access: DashboardAccess? = nil,
        secureCookies: Bool = false, socketLimits: SocketLimits = .init(), tick: Duration = .milliseconds(100)
    ) throws(ConfigurationError) {
        self.store = store
        self.settings = settings
        // One admission for the API's reads and the dashboard's: their bound is one in all.
        collector = try TallyServer(store: store, settings: settings)
        dashboard = DashboardServer(
            store: store, bus: bus, layout: layout, access: access, trustedProxies: settings.trustedProxies,
            secureCookies: secureCookies, socketLimits: socketLimits, allowsPrivateWebhooks: settings.allowsPrivateWebhooks, tick: tick,
            reads: collector.reads)
        let fileAlerts = layout.alerts
        alerts = AlertServices(
            evaluator: AlertEvaluator(store: store, fileRules: { app in fileAlerts.rules(of: app.id) }),
            deliverer: WebhookDeliverer(store: store, transport: settings.webhookTransport))
    }

    /// Every HTTP route, the collector's and the dashboard's; each request is logged at `info`
    /// with its request id, and answered with the security headers.
    public func router() -> Router<DashboardRequestContext> {
        let router = Router(context: DashboardRequestContext.self)
        router.add(middleware: LogRequestsMiddleware(.info))
        router.add(middleware: SecurityHeadersMiddleware())
        collector.addRoutes(to: router)
        dashboard.addRoutes(to: router)
        return router
    }

    /// The Hummingbird application: ``router()``, the pages' WebSocket upgrades, and the
    /// services: ``CommitForwarder``, ``RawEventPruner``, ``UserRemovalFolder``, the alerts'
    /// (``AlertServices``) and the dashboard's.
    ///
    /// - Parameter onRunning: Called once the server listens, with the bound port.
    public func build(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        var logger = Logger(label: "tally.server")
        logger.logLevel = settings.logLevel
        let sockets = dashboard.webSocketRouter().buildResponder()
        let http1 = settings.http1
        return Application(
            router: router(),
            server: settings.server {
                HTTP1WebSocketUpgradeChannel(responder: $0, webSocketResponder: sockets, configuration: .init(http1: http1))
            },
            configuration: settings.application(logger: logger),
            services: [CommitForwarder(store: store, bus: bus), RawEventPruner(store: store), UserRemovalFolder(store: store), alerts]
                + dashboard.services,
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
            logger: logger
        )
    }
}

extension ServerSettings {
    /// The transport of the alert webhooks: ``allowsPrivateWebhooks`` and ``webhookHosts``.
    public var webhookTransport: HTTPWebhookTransport {
        HTTPWebhookTransport(allowsPrivateAddresses: allowsPrivateWebhooks, allowedHosts: webhookHosts)
    }
}

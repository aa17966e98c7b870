public import Componentry
import Foundation
public import Hummingbird
import HummingbirdWebSocket
import Logging
import ServiceLifecycle
public import TallyServer
import TallyStore

/// The collector's API and the live dashboard, served together: what `tally serve` runs.
///
/// ```swift
/// let collector = try TallyServer(store: store)
/// let server = await DashboardServer(collector: collector, layout: .default)
/// try await server.run()
/// ```
///
/// Routes, beside the API's (see ``TallyServer/TallyServer``); every one but the sign-in
/// page and the assets needs a session:
/// - `GET /login`, `POST /login` (form fields `user`, `password`, `csrf`), `POST /logout`;
/// - `GET /`: the first app's dashboard;
/// - `GET /apps/{id}?date=…[&from=…][&compare=1][&tz=…][&sheet=…]` (see ``PageQuery``);
/// - `GET /apps/{id}/live`: the page's WebSocket (see ``LiveSocket``);
/// - `GET /apps/{id}/metrics/{key}.csv`: a metric's daily numbers;
/// - `GET /assets/dashboard.js`, `GET /assets/dashboard.css`.
public struct DashboardServer: Sendable {
    /// The collector whose API and bus the dashboard shares.
    public let collector: TallyServer
    /// The sections every page shows.
    public let layout: DashboardLayout
    /// Users and sessions.
    public let access: DashboardAccess
    /// Keeps the open pages current.
    public let live: LiveUpdates
    /// Keeps every copy of a headline number in step, across tabs and sheets.
    public let channel = SyncChannel()
    /// The names and attributes of the dashboard's cookies.
    let cookies: DashboardCookies
    /// Messages from the pages' sockets, per user (``SocketLimits/messages``).
    let messages: RateLimiter<DashboardUserID>
    /// Sockets opened, per user (``SocketLimits/opened``).
    let sockets: RateLimiter<DashboardUserID>

    var store: EventStore { collector.store }

    /// Creates the application over `collector`, showing `layout`, with the users of
    /// `access` (by default over the collector's store). With `secureCookies`, for a
    /// dashboard served over HTTPS, its cookies are `Secure` and `__Host-` prefixed; each user's
    /// live sockets are held to `socketLimits`.
    @MainActor
    public init(
        collector: TallyServer, layout: DashboardLayout = .default, access: DashboardAccess? = nil, secureCookies: Bool = false,
        socketLimits: SocketLimits = .init(), tick: Duration = .milliseconds(100)
    ) {
        self.collector = collector
        self.layout = layout
        self.access = access ?? DashboardAccess(store: collector.store)
        cookies = DashboardCookies(secure: secureCookies)
        messages = RateLimiter(limit: socketLimits.messages)
        sockets = RateLimiter(limit: socketLimits.opened)
        let store = collector.store
        live = LiveUpdates(bus: collector.bus, tick: tick) { app, query in
            try await DayReport.load(from: store, app: app, layout: layout, query: query)
        }
    }

    /// The router with the API's routes and the dashboard's; each request is logged at `info`
    /// with its request id (`hb.request.id`), through swift-log.
    public func router() -> Router<DashboardRequestContext> {
        let router = Router(context: DashboardRequestContext.self)
        router.add(middleware: LogRequestsMiddleware(.info))
        router.add(middleware: SecurityHeadersMiddleware())
        collector.addRoutes(to: router)
        SignInRoutes(server: self).add(to: router)
        PageRoutes(server: self).add(to: router)
        Assets.add(to: router)
        return router
    }

    /// The router of WebSocket upgrades: the pages' live sockets.
    public func webSocketRouter() -> Router<DashboardRequestContext> {
        let router = Router(context: DashboardRequestContext.self)
        LiveSocket(server: self).add(to: router)
        return router
    }

    /// The application: the routes of ``router()`` and ``webSocketRouter()`` on the
    /// collector's address, with the collector's services.
    ///
    /// - Parameter onRunning: Called once the server listens, with the bound port.
    public func application(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        var logger = Logger(label: "tally.server")
        logger.logLevel = collector.configuration.logLevel
        let configuration = collector.configuration
        let sockets = webSocketRouter().buildResponder()
        return Application(
            router: router(),
            server: configuration.server {
                HTTP1WebSocketUpgradeChannel(responder: $0, webSocketResponder: sockets, configuration: .init(http1: configuration.http1))
            },
            configuration: configuration.application(logger: logger),
            services: collector.services + [SessionWatch(server: self)],
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
            logger: logger
        )
    }

    /// Serves until the task is cancelled or the process receives SIGINT or SIGTERM.
    ///
    /// - Parameter onRunning: Called once the server listens, with the bound port.
    public func run(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        try await application(onRunning: onRunning).runService()
    }

    /// The live session of `request`, if its cookie names one.
    func session(of request: Request) async throws -> DashboardSession? {
        guard let token = sessionToken(of: request) else { return nil }
        return try await access.session(token: token)
    }

    /// The session token of `request`'s cookie, if it carries one.
    func sessionToken(of request: Request) -> String? {
        guard let token = request.cookies[cookies.session]?.value, !token.isEmpty, token.count <= 128 else { return nil }
        return token
    }

    /// Closes the live sockets signed in with the session `token`, at once.
    func closeSockets(ofSession token: String) async {
        await MainActor.run { [live] in live.closePages(ofSessions: [DashboardAccess.hash(token)]) }
    }
}

public import Componentry
import Foundation
public import Hummingbird
import HummingbirdWebSocket
public import ServiceLifecycle
public import TallyHTTP
public import TallyStore

/// The live dashboard's routes over a store, for an application that also serves the
/// collector's API (the `tally` command mounts both on one Hummingbird application).
///
/// ```swift
/// let dashboard = await DashboardServer(store: store, bus: bus)
/// dashboard.addRoutes(to: router)  // a Router<DashboardRequestContext>
/// // serve dashboard.webSocketRouter() as the WebSocket upgrades, run dashboard.services
/// ```
///
/// It hears new events as ``EventsCommitted`` on `bus` (whoever posts them there: the
/// `tally` command forwards the store's ``EventLog/commits()``). Routes; every one but the
/// sign-in page and the assets needs a session, and every one of an app a role in it (see
/// ``TallyStore/AppRole``): an app the user has no role in answers 404, as one that does not
/// exist does:
/// - `GET /login`, `POST /login` (form fields `user`, `password`, `csrf`), `POST /logout`;
/// - `GET /`: the first app's dashboard;
/// - `GET /apps/{id}?date=…[&from=…][&compare=1][&tz=…][&debug=1][&filters=…][&sheet=…]` (see ``PageQuery``);
/// - `GET /apps/{id}/live`: the page's WebSocket (see ``LiveSocket``);
/// - `GET /apps/{id}/metrics/{key}.csv`: a metric's daily numbers;
/// - `GET /apps/{id}/users/{user}/data`, `POST /apps/{id}/users/{user}/delete` (form field
///   `csrf`): one user's data exported as NDJSON, or deleted, for the app's owners (see
///   ``UserDataRoutes``);
/// - `GET /assets/dashboard.js`, `GET /assets/dashboard.css`.
public struct DashboardServer: Sendable {
    /// Apps, events, saved segments, users and sessions.
    public let store: EventStore
    /// The sections every page shows.
    public let layout: DashboardLayout
    /// Users and sessions.
    public let access: DashboardAccess
    /// Keeps the open pages current.
    public let live: LiveUpdates
    /// Keeps every copy of a headline number in step, across tabs and sheets.
    public let channel = SyncChannel()
    /// The reverse proxies whose forwarding header names a sign-in's client address.
    let trustedProxies: TrustedProxies
    /// The names and attributes of the dashboard's cookies.
    let cookies: DashboardCookies
    /// Messages from the pages' sockets, per user (``SocketLimits/messages``).
    let messages: RateLimiter<DashboardUserID>
    /// Sockets opened, per user (``SocketLimits/opened``).
    let sockets: RateLimiter<DashboardUserID>
    /// Whether the server sends alert webhooks to non-public addresses (``DashboardPage/allowsPrivateWebhooks``).
    let allowsPrivateWebhooks: Bool
    /// Where the pages' costly reads and the live updates wait their turn: shared with the
    /// collector's API when both are served.
    public let reads: ReadAdmission
    /// The funnel and paths counts in flight, shared by every page.
    public let sheetReads = SheetReads()
    /// The shortest time between two counts of a page's open funnel or paths sheet while
    /// new events arrive (``PageReads/liveSheetInterval``).
    public let liveSheetInterval: Duration

    /// Creates the dashboard over `store`, hearing new events on `bus`, showing `layout`, with
    /// the users of `access` (by default over `store`). Sign-ins through `trustedProxies` are
    /// counted by the client address the proxy names. With `secureCookies`, for a dashboard
    /// served over HTTPS, its cookies are `Secure` and `__Host-` prefixed; each user's live
    /// sockets are held to `socketLimits`. The filter bar lists the app's saved segments, from
    /// `store`. Unless `allowsPrivateWebhooks`, an alert rule made in the dashboard is refused
    /// when its webhook names a loopback or other non-public address. Reports, sheets and
    /// live updates wait their turn in `reads` (by default one of the dashboard's own); an
    /// open funnel or paths sheet is counted again for new events at most once per
    /// `liveSheetInterval`.
    @MainActor
    public init(
        store: EventStore, bus: EventBus, layout: DashboardLayout = .default, access: DashboardAccess? = nil,
        trustedProxies: TrustedProxies = .init(), secureCookies: Bool = false, socketLimits: SocketLimits = .init(),
        allowsPrivateWebhooks: Bool = false, tick: Duration = .milliseconds(100), reads: ReadAdmission = ReadAdmission(),
        liveSheetInterval: Duration = .seconds(2)
    ) {
        self.store = store
        self.layout = layout
        self.access = access ?? DashboardAccess(store: store)
        self.trustedProxies = trustedProxies
        cookies = DashboardCookies(secure: secureCookies)
        messages = RateLimiter(limit: socketLimits.messages)
        sockets = RateLimiter(limit: socketLimits.opened)
        self.allowsPrivateWebhooks = allowsPrivateWebhooks
        self.reads = reads
        self.liveSheetInterval = liveSheetInterval
        live = LiveUpdates(bus: bus, tick: tick) { app, query in
            try await reads.run(ReadAdmission.Reader(app: app.production.rawValue, holder: .liveUpdates)) {
                try await DayReport.load(from: store, app: app, layout: layout, query: query)
            }
        }
    }

    /// Adds the dashboard's routes to `router`, whose other routes (the collector's API) and
    /// middleware it leaves alone.
    public func addRoutes(to router: Router<DashboardRequestContext>) {
        SignInRoutes(server: self).add(to: router)
        PageRoutes(server: self).add(to: router)
        UserDataRoutes(server: self).add(to: router)
        Assets.add(to: router)
    }

    /// The router of WebSocket upgrades: the pages' live sockets.
    public func webSocketRouter() -> Router<DashboardRequestContext> {
        let router = Router(context: DashboardRequestContext.self)
        LiveSocket(server: self).add(to: router)
        return router
    }

    /// What the routes need running beside them: the watch that closes the sockets of ended
    /// sessions.
    public var services: [any Service] { [SessionWatch(server: self)] }

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

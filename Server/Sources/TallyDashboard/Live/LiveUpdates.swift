public import Componentry
public import Foundation
import Metrics
import TallyHTTP
public import TallyStore

/// Keeps every open dashboard up to date as events arrive, with no polling.
///
/// A page registers when its tab connects. While an app has open pages, its
/// ``EventsCommitted`` are heard (a subscription filtered on the app's
/// sub-type, so other apps' ingest costs nothing here); each marks the app, and once per ``tick`` each
/// marked app's report is read once per range its pages show — whatever the number of open
/// tabs — and posted as ``ReportArrived`` on the bus of each of those pages. Pages are held
/// weakly: a closed tab's page is freed, and its entry dropped. A user has at most
/// ``pagesPerUser`` pages open; opening one more closes their oldest.
@MainActor
public final class LiveUpdates: LifetimeOwner {
    /// Reads the report a page of `query` shows, as ``DayReport/load(from:app:layout:query:)`` does.
    public typealias Loader = @Sendable (_ app: AppID, _ query: PageQuery) async throws -> DayReport

    /// The most pages one user keeps open.
    public static let pagesPerUser = 8

    /// The shortest time between two reads of an app's report: marks made meanwhile wait
    /// and are read together.
    public let tick: Duration
    private let load: Loader
    private var pages: [AppID: [Entry]] = [:]
    private var marked: Set<AppID> = []
    private var isTickScheduled = false
    /// When the last tick started.
    private var lastTick: ContinuousClock.Instant?
    private let bus: EventBus
    /// One subscription per app with open pages.
    private var subscriptions: [AppID: Subscription] = [:]
    /// Reports read since the server started, and the ticks that read them: the work per
    /// tick does not grow with the number of open tabs.
    public private(set) var reportsRead = 0
    /// Ticks run since the server started (see ``reportsRead``).
    public private(set) var ticks = 0

    private struct Entry {
        weak var page: DashboardPage?
        let user: DashboardUserID?
        /// The SHA-256 of the session token the page's connection signed in with.
        let session: Data?
        let close: @MainActor () -> Void
    }

    /// Starts listening to `bus` for ingested events.
    public init(bus: EventBus, tick: Duration = .milliseconds(100), load: @escaping Loader) {
        self.tick = tick
        self.load = load
        self.bus = bus
    }

    /// Keeps `page` up to date until it is freed. `close` ends its connection: it is
    /// called if `user` opens more than ``pagesPerUser`` pages while this one is the oldest,
    /// and when its `session` (the SHA-256 of its token) ends (see ``closePages(ofSessions:)``).
    public func register(
        _ page: DashboardPage, user: DashboardUserID? = nil, session: Data? = nil, close: @escaping @MainActor () -> Void = {}
    ) {
        dropClosedPages()
        if let user {
            let open = pages.values.flatMap { $0 }.filter { $0.user == user }
            for oldest in open.prefix(max(open.count - Self.pagesPerUser + 1, 0)) {
                oldest.close()
                if let page = oldest.page { unregister(page) }
            }
        }
        pages[page.shownApp, default: []].append(Entry(page: page, user: user, session: session, close: close))
        listen(to: page.shownApp)
        reportOpenPages()
    }

    /// Hears `app`'s ingest notices, once per app.
    private func listen(to app: AppID) {
        guard subscriptions[app] == nil else { return }
        subscriptions[app] = subscribe(to: EventsCommitted.self, on: bus).subType(EventsCommitted.subType(of: app)).onMainActor()
            .handle { live, commit in live.mark(commit.app) }
    }

    /// The apps whose notices are heard; for tests of the bound.
    var heardApps: Set<AppID> { Set(subscriptions.keys) }

    /// Stops updating `page`.
    public func unregister(_ page: DashboardPage) {
        pages[page.shownApp]?.removeAll { $0.page === page || $0.page == nil }
        if pages[page.shownApp]?.isEmpty == true { pages[page.shownApp] = nil }
        dropUnwatchedApps()
        reportOpenPages()
    }

    /// The sessions of the open pages (the SHA-256 of their tokens).
    public var openSessions: Set<Data> {
        Set(pages.values.joined().lazy.filter { $0.page != nil }.compactMap(\.session))
    }

    /// Closes the connections of the pages whose session is one of `sessions`, and stops
    /// updating them: their user signed out, or their session was deleted or expired.
    public func closePages(ofSessions sessions: Set<Data>) {
        guard !sessions.isEmpty else { return }
        for entry in pages.values.joined() where entry.session.map(sessions.contains) == true {
            entry.close()
            if let page = entry.page { unregister(page) }
        }
    }

    /// The users of the open pages.
    public var openUsers: Set<DashboardUserID> {
        Set(pages.values.joined().lazy.filter { $0.page != nil }.compactMap(\.user))
    }

    /// Gives each open page of `users` its user's role in its app from `roles` (by production
    /// app id, as ``TallyStore/EventStore/roles(of:)`` reads them), and closes, and stops
    /// updating, those whose user no longer has one: their role was revoked.
    public func apply(roles: [DashboardUserID: [AppID: AppRole]], of users: Set<DashboardUserID>) {
        for entry in pages.values.joined() {
            guard let user = entry.user, users.contains(user), let page = entry.page else { continue }
            if let role = roles[user]?[page.app.id.production] {
                page.role = role
            } else {
                entry.close()
                unregister(page)
            }
        }
    }

    /// The name of the gauge of ``openPages``, reported through swift-metrics' `MetricsSystem`.
    public static let openPagesMetric = "tally_dashboards_open"

    private func reportOpenPages() {
        Gauge(label: Self.openPagesMetric).record(openPages)
    }

    /// The registered pages still open.
    public var openPages: Int {
        pages.values.reduce(0) { $0 + $1.count { $0.page != nil } }
    }

    /// The entries held, closed pages not yet dropped included; for tests of the bound.
    var entryCount: Int { pages.values.reduce(0) { $0 + $1.count } }

    private func mark(_ app: AppID) {
        guard pages[app] != nil else { return }
        marked.insert(app)
        guard !isTickScheduled else { return }
        isTickScheduled = true
        // A tick starts at most once per `tick`, counted from the start of the last one: after
        // a quiet spell the first event is shown at once, and under a steady stream ticks
        // follow each other every `tick` instead of every `tick` plus a read.
        let wait = lastTick.map { tick - (ContinuousClock.now - $0) } ?? .zero
        Task {
            if wait > .zero { try? await Task.sleep(for: wait) }
            await self.refresh()
        }
    }

    /// Reads each marked app's report once per range shown and posts it to its pages.
    private func refresh() async {
        let apps = marked
        marked.removeAll()
        isTickScheduled = false
        ticks += 1
        lastTick = .now
        dropClosedPages()
        for app in apps {
            let byQuery = Dictionary(grouping: (pages[app] ?? []).compactMap(\.page)) { $0.viewModel.query.value.with { $0.sheet = nil } }
            for (query, group) in byQuery {
                reportsRead += 1
                guard let report = try? await load(app, query) else { continue }  // the next ingest retries
                for page in group { page.eventBus.post(ReportArrived(query: query, report: report)) }
            }
        }
    }

    private func dropClosedPages() {
        for (app, entries) in pages {
            let open = entries.filter { $0.page != nil }
            pages[app] = open.isEmpty ? nil : open
        }
        dropUnwatchedApps()
    }

    /// Stops hearing apps that have no open page.
    private func dropUnwatchedApps() {
        for (app, subscription) in subscriptions where pages[app] == nil {
            subscription.dispose()
            subscriptions[app] = nil
        }
    }
}

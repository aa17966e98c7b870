import Componentry
import ComponentryList
import Foundation
import Synchronization
import TallyEvent
import TallyStore
import Testing

@testable import TallyDashboard

/// Live updates without a browser: announcements on the bus become patches for every open
/// page, with one report read per app and tick however many tabs are open.
@MainActor
@Suite struct LiveUpdatesTests {
    /// A loader that counts its reads and answers a report whose DAU is the read's number.
    final class CountingLoader: Sendable {
        let reads = Mutex<[AppID: Int]>([:])

        func load(_ app: AppID, _ query: PageQuery) async throws -> DayReport {
            let count = reads.withLock { reads in
                reads[app, default: 0] += 1
                return reads[app]!
            }
            return try DayReport(metrics: Self.metrics(dau: count, date: query.date.description))
        }

        /// Day metrics with `dau` set, decoded as the metrics API writes them.
        static func metrics(dau: Int, date: String) throws -> DayMetrics {
            let json =
                #"{"date":"\#(date)","tz":"UTC","dau":\#(dau),"wau":0,"mau":0,"new_users":0,"events":{},"per_user":{},"versions":{},"screens":{}}"#
            return try JSONDecoder().decode(DayMetrics.self, from: Data(json.utf8))
        }
    }

    /// Waits until `condition` holds, for at most 5 seconds.
    func eventually(_ condition: @MainActor () -> Bool) async throws {
        for _ in 0..<500 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
    }

    @Test(arguments: [1, 10, 100])
    func oneReadPerAppAndTickWhateverTheNumberOfTabs(tabs: Int) async throws {
        let bus = EventBus()
        let loader = CountingLoader()
        let live = LiveUpdates(bus: bus, tick: .milliseconds(50), load: loader.load)
        let (shown, other) = (App.test.id, AppID(rawValue: 2))
        let pages = (0..<tabs).map { _ in DashboardPage(date: "2026-11-20", app: .test) }
        var patched = 0
        for page in pages {
            page.outbox = { message in if !message.patches.isEmpty { patched += 1 } }
            live.register(page)
        }

        for _ in 0..<50 { bus.post(EventsCommitted(app: shown, count: 1)) }
        bus.post(EventsCommitted(app: other, count: 1))
        try await eventually { patched == tabs }
        #expect(patched == tabs)
        #expect(pages.allSatisfy { $0.html.contains(#"data-metric="dau">1<"#) })
        try await Task.sleep(for: .milliseconds(150))
        #expect(loader.reads.withLock { $0 } == [shown: 1], "one read for 50 announcements and \(tabs) tabs; none for an app nobody watches")
    }

    /// A page of the app's debug builds reads and hears the app's debug id, a page of
    /// production the app's: each is updated by its own events only.
    @Test func debugPagesFollowTheDebugBuildsEventsOnly() async throws {
        let bus = EventBus()
        let loader = CountingLoader()
        let live = LiveUpdates(bus: bus, tick: .milliseconds(50), load: loader.load)
        let production = DashboardPage(date: "2026-11-20", app: .test)
        let debug = DashboardPage(app: .test, layout: .default, query: PageQuery(date: CalendarDay("2026-11-20")!, debug: true))
        #expect(debug.shownApp == App.test.id.debug && production.shownApp == App.test.id)
        var patched: [String] = []
        production.outbox = { if !$0.patches.isEmpty { patched.append("production") } }
        debug.outbox = { if !$0.patches.isEmpty { patched.append("debug") } }
        live.register(production)
        live.register(debug)
        bus.post(EventsCommitted(app: App.test.id.debug, count: 1))
        try await eventually { patched == ["debug"] }
        #expect(patched == ["debug"])
        #expect(loader.reads.withLock { $0 } == [App.test.id.debug: 1])
        #expect(debug.url.hasSuffix("debug=1"))
    }

    /// A user who opens more than the bound closes their oldest pages; other users' stay.
    @Test func pagesPerUserAreBounded() {
        let live = LiveUpdates(bus: EventBus(), load: CountingLoader().load)
        let (ann, bob) = (DashboardUserID(rawValue: 1), DashboardUserID(rawValue: 2))
        var closed = 0
        let bobs = DashboardPage(date: "2026-11-20")
        live.register(bobs, user: bob) { Issue.record("another user's page was closed") }
        var pages: [DashboardPage] = []
        for _ in 0..<(LiveUpdates.pagesPerUser * 20) {
            let page = DashboardPage(date: "2026-11-20")
            pages.append(page)  // kept alive: only the bound may close them
            live.register(page, user: ann) { closed += 1 }
        }
        #expect(closed == LiveUpdates.pagesPerUser * 19)
        #expect(live.openPages == LiveUpdates.pagesPerUser + 1)
    }

    /// Only apps with open pages are heard, through a subscription filtered on the app.
    @Test func onlyWatchedAppsAreHeard() throws {
        let live = LiveUpdates(bus: EventBus(), load: CountingLoader().load)
        var other = App.test
        other.id = AppID(rawValue: 2)
        do {
            let page = DashboardPage(date: "2026-11-20")
            live.register(page)
            #expect(live.heardApps == [App.test.id])
        }
        let kept = DashboardPage(date: "2026-11-20", app: other)
        live.register(kept)
        #expect(live.heardApps == [other.id], "the closed tab's app is no longer heard")
        live.unregister(kept)
        #expect(live.heardApps.isEmpty)
    }

    @Test func aClosedTabIsFreedAndDropped() async throws {
        let bus = EventBus()
        let loader = CountingLoader()
        let live = LiveUpdates(bus: bus, tick: .milliseconds(20), load: loader.load)
        let kept = DashboardPage(date: "2026-11-20")
        live.register(kept)
        weak var closed: DashboardPage?
        do {
            let page = DashboardPage(date: "2026-11-20")
            closed = page
            live.register(page)
            #expect(live.openPages == 2)
        }
        #expect(closed == nil, "the hub must not keep a closed tab's page")
        #expect(live.openPages == 1)

        // Many tabs opened and closed over the server's life leave no entries behind.
        for _ in 0..<1_000 { live.register(DashboardPage(date: "2026-11-20")) }
        live.register(kept)
        #expect(live.entryCount <= 3)
    }
}

import Componentry
import ComponentryList
import Foundation
import TallyEvent
import TallyStore
import Testing

@testable import TallyDashboard

/// The page on the server, driven as the browser will drive it, with no browser: its HTML,
/// and the DOM patches each change produces.
@MainActor
@Suite struct DashboardPageTests {
    let store: EventStore
    let app: AppID

    init() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tally-dashboard-\(UUID()).sqlite").path
        store = try EventStore(path: path)
        app = try await store.apps.create(name: "Bills").app.id
        let noon = try Date("2026-11-20T12:00:00Z", strategy: .iso8601)
        var events: [Event] = []
        for (user, bills) in [("ann", 3), ("bob", 1)] {
            events.append(Self.event("screen_view", user: user, at: noon, ["screen": .string("BillEditor")]))
            for bill in 0..<bills {
                let note: PropertyValue = .string(bill == 0 ? " " : "lunch")
                events.append(
                    Self.event("bill_created", user: user, at: noon, version: "2.0", ["note": note, "duration_s": .int(10 * (bill + 1))]))
            }
        }
        try await store.events.insert(events, app: app)
    }

    static func event(
        _ name: String, user: String, at time: Date, version: String = "1.0", _ properties: [String: PropertyValue] = [:]
    ) -> Event {
        Event(
            id: UUID(), name: name, timestamp: time, deviceTimestamp: time, userID: user, sessionID: nil,
            appVersion: version, platform: "ios", properties: properties)
    }

    /// The UTC day of `date`, as `YYYY-MM-DD`.
    static func utcDay(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day())
    }

    /// The ids of the `data-section` elements of `html`, in document order.
    func sectionIDs(_ html: String) -> [String] {
        html.matches(of: /data-section="([^"]+)"/).map { String($0.1) }
    }

    /// The text of the element whose `data-metric` is `key`.
    func metric(_ key: String, in html: String) -> String? {
        html.firstMatch(of: try! Regex(#"data-metric="\#(key)">([^<]*)<"#))?.output[1].substring.map(String.init)
    }

    @Test func theFirstResponseHasEverySectionInLayoutOrderWithItsTitle() {
        let page = DashboardPage(date: "2026-11-20")
        #expect(sectionIDs(page.html) == DashboardLayout.default.sections.map(\.id))
        #expect(page.html.contains("<h2>Users &amp; versions</h2>"))
    }

    @Test func aReportShowsItsNumbersThroughPatches() async throws {
        let page = DashboardPage(date: "2026-11-20")
        let report = try await DayReport.load(from: store, layout: .default, in: ReadScope(app: app, day: CalendarDay("2026-11-20")!))
        let patches = page.show(report)
        #expect(!patches.isEmpty)
        #expect(
            patches.allSatisfy {
                switch $0 {
                case .insert: true
                case .remove(let id), .replace(let id, _): id.contains("empty")
                default: false
                }
            }, "numbers arrive as new tiles, in place of the sections' loading notes")
        #expect(!page.html.contains("Loading…"))
        #expect(metric("dau", in: page.html) == "2")
        #expect(metric("new_users", in: page.html) == "2")
        #expect(metric("events", in: page.html) == "6")
        #expect(metric("bills", in: page.html) == "4")
        #expect(metric("bills_per_user", in: page.html) == "2.0")
        #expect(metric("screen:BillEditor", in: page.html) == "2")
        #expect(page.html.contains("Bill editor"), "screens show their readable names")
        #expect(metric("version:2.0", in: page.html) == "2")
        #expect(metric("empty_note", in: page.html) == "50%", "a blank note counts as empty: 2 of 4")
        #expect(metric("record_seconds", in: page.html) == "17.5 s", "(10 + 20 + 30 + 10) / 4")
        #expect(metric("ads", in: page.html) == "0")

        #expect(page.show(report).isEmpty, "the same report changes nothing")
    }

    /// The retention section: of the users new 1, 7 and 30 days before the day, the share
    /// back on it, as the store's retention matrix counts them.
    @Test func theRetentionSectionShowsWhoCameBack() async throws {
        let day = 86_400.0
        let noon = try Date("2026-11-20T12:00:00Z", strategy: .iso8601)
        let yesterday = ["cy", "dy", "ey"]
        let weekAgo = ["fw", "gw"]
        try await store.events.insert(
            yesterday.map { Self.event("login", user: $0, at: noon.addingTimeInterval(-day)) }
                + weekAgo.map { Self.event("login", user: $0, at: noon.addingTimeInterval(-7 * day)) }
                + ["cy", "fw", "gw"].map { Self.event("login", user: $0, at: noon) },
            app: app)
        let page = DashboardPage(date: "2026-11-20")
        let report = try await DayReport.load(
            from: store, app: app, layout: .default, query: PageQuery(date: CalendarDay("2026-11-20")!, timeZone: TimeZone(identifier: "UTC")))
        _ = page.show(report)
        #expect(metric("retention:1", in: page.html) == "33%", "1 of the 3 new yesterday")
        #expect(metric("retention:7", in: page.html) == "100%", "both new a week ago")
        #expect(metric("retention:30", in: page.html) == "—", "nobody was new 30 days ago")
        // The same cells as the whole matrix's.
        let matrix = try await store.metrics.retention(
            ReadScope(app: app, days: CalendarDay("2026-10-21")!...CalendarDay("2026-11-20")!, timeZone: TimeZone(identifier: "UTC")))
        #expect(report.returning.map(\.days) == DayReport.retentionDays)
        for group in report.returning {
            let cohort = matrix.cohorts[matrix.cohorts.count - 1 - group.days]
            #expect((group.firstSeen, group.returned) == (cohort.size, cohort.returning[group.days - 1]))
        }
    }

    /// The revenue section: paying users, first-time payers, and per currency the revenue
    /// written with its code and the average per paying user; a later purchase reaches an
    /// open page as a patch of the tiles it changes.
    @Test func theRevenueSectionShowsRevenuePerCurrencyAndFollowsNewPurchases() async throws {
        let noon = try Date("2026-11-20T12:00:00Z", strategy: .iso8601)
        func purchase(_ user: String, _ revenue: PropertyValue, _ currency: String, at time: Date = noon) -> Event {
            Self.event("purchase", user: user, at: time, ["revenue": revenue, "currency": .string(currency)])
        }
        try await store.events.insert(
            [
                purchase("ann", .string("1234.5"), "EUR"), purchase("bob", .int(3), "eur"), purchase("bob", .double(2.99), "USD"),
                purchase("cid", .string("9.99"), "USD", at: noon.addingTimeInterval(-86_400)),
            ], app: app)
        let page = DashboardPage(date: "2026-11-20")
        let query = PageQuery(date: CalendarDay("2026-11-20")!, timeZone: TimeZone(identifier: "UTC"))
        _ = page.show(try await DayReport.load(from: store, app: app, layout: .default, query: query))
        #expect(metric("revenue:paying_users", in: page.html) == "2")
        #expect(metric("revenue:first_time_payers", in: page.html) == "2")
        #expect(metric("revenue:EUR", in: page.html) == "EUR 1,237.50")
        #expect(metric("revenue:USD", in: page.html) == "USD 2.99")
        #expect(page.html.contains("EUR 618.75 per paying user"))
        #expect(page.html.contains("Daily paying users"), "the chart of the charts' window")
        // A purchase event without a currency adds nothing, and data health says why.
        try await store.events.insert([Self.event("purchase", user: "eve", at: Date(), ["revenue": .int(5)])], app: app)
        let today = PageQuery(date: CalendarDay(Self.utcDay(Date()))!, timeZone: TimeZone(identifier: "UTC"))
        let health = DashboardPage(date: today.date.description)
        _ = health.show(try await DayReport.load(from: store, app: app, layout: .default, query: today))
        #expect(metric("health:purchase:purchase_invalid_currency", in: health.html) == "1")

        try await store.events.insert([purchase("dan", .string("10"), "USD")], app: app)
        let patches = page.show(try await DayReport.load(from: store, app: app, layout: .default, query: query))
        #expect(!patches.isEmpty)
        #expect(metric("revenue:paying_users", in: page.html) == "3")
        #expect(metric("revenue:USD", in: page.html) == "USD 12.99")
    }

    /// An app with no purchase says so instead of showing zeros.
    @Test func theRevenueSectionSaysWhenThereIsNoPurchase() async throws {
        let page = DashboardPage(date: "2026-11-20")
        let query = PageQuery(date: CalendarDay("2026-11-20")!, timeZone: TimeZone(identifier: "UTC"))
        _ = page.show(try await DayReport.load(from: store, app: app, layout: .default, query: query))
        #expect(page.html.contains("No purchases in this range."))
        #expect(metric("revenue:paying_users", in: page.html) == nil)
        #expect(!page.html.contains("Daily paying users"))

        // Purchases on earlier days: the chart below shows them, and the empty range says
        // which days the chart spans.
        let earlier = try Date("2026-11-15T12:00:00Z", strategy: .iso8601)
        try await store.events.insert([Self.event("purchase", user: "ann", at: earlier, ["revenue": .int(5), "currency": .string("EUR")])], app: app)
        let report = try await DayReport.load(from: store, app: app, layout: .default, query: query)
        _ = page.show(report)
        let days = try #require(report.revenueTrend?.dates.count)
        #expect(page.html.contains("No purchases in this range; the chart shows the last \(days) days."))
        #expect(page.html.contains("Daily paying users"))
        #expect(metric("revenue:paying_users", in: page.html) == nil)
    }

    @Test func aSavedOrderIsShownAndHiddenSectionsAreLeftOut() {
        let order = ComponentOrder(["ads", "app", "bills"], hidden: ["bills"])
        let page = DashboardPage(date: "2026-11-20", order: order)
        #expect(sectionIDs(page.html) == ["ads", "app"])
    }

    /// Reordering and hiding are the section manager's work: one moved or removed element,
    /// not a new page.
    @Test func reorderingAndHidingAreMinimalPatches() {
        let page = DashboardPage(date: "2026-11-20")
        let moved = page.move("ads", to: 0)
        #expect(moved.count == 1)
        guard case .move? = moved.first else {
            Issue.record("expected one move, got \(moved)")
            return
        }
        #expect(sectionIDs(page.html).first == "ads")
        #expect(page.viewModel.order.value.identifiers.first == "ads")

        let hidden = page.setHidden(true, for: "bills")
        #expect(hidden.count == 1)
        guard case .remove? = hidden.first else {
            Issue.record("expected one removal, got \(hidden)")
            return
        }
        #expect(!sectionIDs(page.html).contains("bills"))
        #expect(page.viewModel.order.value.hidden == ["bills"])
    }

    /// A browser may send a stale or forged section id; the page ignores it.
    @Test func unknownSectionsChangeNothing() {
        let page = DashboardPage(date: "2026-11-20")
        let before = page.html
        #expect(page.move("<script>", to: 0).isEmpty)
        #expect(page.move("ads", to: -5).count == 1, "an index out of range is clamped")
        #expect(page.setHidden(true, for: "nope").isEmpty)
        #expect(sectionIDs(page.html).first == "ads")
        #expect(page.move("ads", to: Int.max).count == 1)
        #expect(sectionIDs(page.html) == sectionIDs(before).filter { $0 != "ads" } + ["ads"])
    }

    /// Data health flags the day when rejections and SDK drops pass the layout's share (5%).
    @Test(arguments: [(rejected: 3, dropped: 2, flagged: false), (rejected: 3, dropped: 3, flagged: true), (rejected: 0, dropped: 0, flagged: false)])
    func dataHealthFlagsAnUnreliableDay(rejected: Int, dropped: Int, flagged: Bool) throws {
        let page = DashboardPage(date: "2026-11-20")
        let json =
            #"{"from":"2026-11-20","to":"2026-11-20","tz":"UTC","accepted":95,"duplicates":0,"rejected":{"invalid_name":\#(rejected)},"dropped":{"capped-bytes":\#(dropped)}}"#
        var report = DayReport(metrics: try LiveUpdatesTests.CountingLoader.metrics(dau: 1, date: "2026-11-20"))
        report.health = try JSONDecoder().decode(DataHealth.self, from: Data(json.utf8))
        _ = page.show(report)
        #expect(page.html.contains("Data unreliable") == flagged)
        #expect(metric("health:rejected", in: page.html) == String(rejected))
        #expect(metric("health:dropped", in: page.html) == String(dropped))
    }

    /// A closed tab frees its page and every section with it.
    @Test func aClosedPageIsFreedWithItsSections() {
        weak var freedPage: DashboardPage?
        weak var freedSection: SectionComponent?
        do {
            let page = DashboardPage(date: "2026-11-20")
            freedPage = page
            freedSection = page.sections.first
            #expect(freedSection != nil)
        }
        #expect(freedPage == nil)
        #expect(freedSection == nil)
    }
}

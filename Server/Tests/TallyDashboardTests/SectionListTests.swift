import ComponentryList
import Foundation
import TallyEvent
import TallyStore
import Testing

@testable import TallyDashboard

/// The sections as people read them: ranked lists with bars and their "Show all", the range's
/// headlines with their change, the live feed's table in the page's time zone, and what a
/// section says when it has nothing to show.
@MainActor
@Suite struct SectionListTests {
    let store: EventStore
    let app: App

    /// 14 screens viewed 1 to 14 times on 2026-11-20 by three users; a week before it, two
    /// users; events each day of the week between.
    init() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tally-test-sections-\(UUID()).sqlite").path
        store = try EventStore(path: path)
        let created = try await store.apps.create(name: "Lists", timeZone: "UTC")
        app = created.app
        let day = try Date("2026-11-20T12:00:00Z", strategy: .iso8601)
        var events: [Event] = []
        for screen in 1...14 {
            for view in 0..<screen {
                events.append(Self.event("screen_view", user: "u\(view % 3)", at: day, ["screen": .string("S\(screen)")]))
            }
        }
        for offset in 1...13 {
            let users = offset >= 7 ? ["a", "b"] : ["a", "b", "c", "d"]
            for user in users { events.append(Self.event("open", user: user, at: day.addingTimeInterval(-Double(offset) * 86_400))) }
        }
        try await store.events.insert(events, app: app.id)
    }

    static func event(_ name: String, user: String, at time: Date, _ properties: [String: PropertyValue] = [:]) -> Event {
        Event(id: UUID(), name: name, timestamp: time, userID: user, sessionID: "s-\(user)", properties: properties)
    }

    func page(_ query: PageQuery) async throws -> DashboardPage {
        let page = DashboardPage(app: app, layout: .default, query: query, order: nil, store: store)
        _ = page.show(try await DayReport.load(from: store, app: app.id, layout: .default, query: query))
        return page
    }

    /// The values and bar lengths of the screens' rows, in order.
    func screenRows(_ html: String) -> [(value: Int, bar: Double)] {
        let row = try! Regex(
            #"<rect width="([0-9.]+)" height="10"/></svg><span class="label" title="S\d+">S\d+</span>"#
                + #"(?:<a [^>]+>Paths →</a>)?<span class="value" data-n="(\d+)""#)
        return html.matches(of: row).map { (Int($0.output[2].substring!)!, Double($0.output[1].substring!)!) }
    }

    @Test func aRankedListShowsTenRowsWithBarsThenAllOnShowAll() async throws {
        let page = try await page(PageQuery(date: CalendarDay(shown: "2026-11-20")!))
        let rows = screenRows(page.html)
        #expect(rows.map(\.value) == Array((5...14).reversed()), "the ten most viewed, most first")
        for row in rows { #expect(abs(row.bar - Double(row.value) / 14 * 100) <= 0.05, "bar \(row.bar) for \(row.value)") }
        #expect(page.html.contains(#"data-event="expand" data-value="on">Show all (4 more)"#))
        #expect(page.html.contains(#"data-event="sheet" data-value="paths:S14""#), "a screen's row links to its paths")

        // The section takes its own "Show all"; the page redraws it, and only it.
        var patches: [DOMPatch] = []
        page.outbox = { patches += $0.patches }
        try page.receive(BrowserEvent(section: "screens", name: "expand", value: "on"))
        for _ in 0..<100 where patches.isEmpty { await Task.yield() }
        #expect(!patches.isEmpty && patches.allSatisfy { String(describing: $0).contains("sections-c-screens") })
        #expect(screenRows(page.html).map(\.value) == Array((1...14).reversed()))
        #expect(page.html.contains(#"data-value="off">Show fewer"#))
        #expect(page.viewModel.expandedSections.value == ["screens"])
        patches = []
        try page.receive(BrowserEvent(section: "screens", name: "expand", value: "off"))
        for _ in 0..<100 where patches.isEmpty { await Task.yield() }
        #expect(screenRows(page.html).count == 10)
        #expect(throws: BrowserEventError.self) { try page.receive(BrowserEvent(section: nil, name: "expand", value: "on")) }
        #expect(throws: BrowserEventError.self) { try page.receive(BrowserEvent(section: "screens", name: "expand", value: "maybe")) }
    }

    /// A range's headlines are the range's distinct users, its average day, its new users
    /// and events, each against the previous period of as many days when comparing.
    @Test func aRangeSaysWhatItsHeadlinesAreAndTheirChange() async throws {
        let query = PageQuery(date: CalendarDay(shown: "2026-11-19")!, from: CalendarDay(shown: "2026-11-14")!, compare: true)
        let page = try await page(query)
        let range = try await store.metrics.range(ReadScope(app: app.id, days: CalendarDay("2026-11-14")!...CalendarDay("2026-11-19")!))
        let previous = try await store.metrics.range(ReadScope(app: app.id, days: CalendarDay("2026-11-08")!...CalendarDay("2026-11-13")!))
        let tiles = SectionComponent.headlines(of: try #require(page.viewModel.report.value))
        func average(_ dau: [Int]) -> Int { Int((Double(dau.reduce(0, +)) / Double(dau.count)).rounded()) }
        #expect(tiles.map(\.id) == ["range_users", "average_dau", "range_new_users", "range_events"])
        #expect(tiles.map(\.label) == ["Unique users", "Average daily users", "New users", "Events"])
        #expect(tiles[0].value == String(range.users) && range.users == 4)
        #expect(tiles[1].value == String(average(range.dau)))
        #expect(tiles[0].detail == SectionComponent.change(range.users, from: previous.users) + " vs previous 6 days")
        #expect(
            tiles[1].detail
                == "+\(Int((Double(average(range.dau) - average(previous.dau)) / Double(average(previous.dau)) * 100).rounded()))% vs previous 6 days"
        )
        #expect(page.html.contains(#"data-metric="range_users">4<"#))

        // One day: the day's headlines, against the day before.
        let day = try await self.page(PageQuery(date: CalendarDay(shown: "2026-11-14")!, compare: true))
        let dayTiles = SectionComponent.headlines(of: try #require(day.viewModel.report.value))
        #expect(dayTiles.map(\.id) == ["dau", "wau", "mau", "new_users", "events"])
        #expect(dayTiles[0].detail == "+100% vs 13 Nov", "4 users against 2")
    }

    @Test func changesAreSignedPercentages() {
        #expect(SectionComponent.change(150, from: 100) == "+50%")
        #expect(SectionComponent.change(50, from: 100) == "\u{2212}50%")
        #expect(SectionComponent.change(100, from: 100) == "±0%")
        #expect(SectionComponent.change(0, from: 0) == "±0%")
        #expect(SectionComponent.change(7, from: 0) == "up from 0")
        #expect(SectionComponent.change(1, from: 3) == "\u{2212}67%")
    }

    /// The feed's times are the page's time zone's, each event with its user's link, its
    /// name and a key property.
    @Test func theLiveFeedIsATableInThePagesTimeZone() async throws {
        let page = try await page(PageQuery(date: CalendarDay(shown: "2026-11-20")!, timeZone: TimeZone(identifier: "Asia/Tokyo")))
        let html = page.html
        #expect(html.contains(#"<span class="time" data-metric="feed:"#))
        #expect(html.contains(">21:00:00</span>"), "12:00 UTC is 21:00 in Tokyo")
        #expect(!html.contains(">12:00:00</span>"))
        #expect(html.contains(#"<span class="label">screen_view</span><span class="detail property">S14</span>"#))
        #expect(html.contains(#"data-value="user:u0""#))
        #expect(SectionComponent.keyProperty(of: Self.event("tap", user: "x", at: Date(), ["z": .int(1), "b": .string("two")])) == "b: two")
        #expect(SectionComponent.keyProperty(of: Self.event("tap", user: "x", at: Date())) == nil)
    }

    /// Before its report, every section says it is loading; then a section with nothing in
    /// the range says so.
    @Test func sectionsSayWhenTheyAreLoadingOrEmpty() async throws {
        let loading = DashboardPage(app: app, layout: .default, query: PageQuery(date: CalendarDay(shown: "2026-11-20")!), order: nil, store: store)
        #expect(loading.html.components(separatedBy: "Loading…").count - 1 == DashboardLayout.default.sections.count)
        let empty = try await page(PageQuery(date: CalendarDay(shown: "2026-10-01")!))
        #expect(empty.html.contains("No screen was viewed in this range."))
        #expect(!empty.html.contains("Loading…"))
    }

    /// A first read that fails leaves no section saying it is loading: each says why.
    @Test func sectionsSayWhyTheirNumbersCouldNotBeRead() async throws {
        var missing = app
        missing.id = AppID(rawValue: 9_999)
        let page = DashboardPage(app: missing, layout: .default, query: PageQuery(date: CalendarDay(shown: "2026-11-20")!), order: nil, store: store)
        var errors: [String] = []
        page.outbox = { if let error = $0.error { errors.append(error) } }
        await page.refresh()
        #expect(errors.count == 1 && errors[0].hasPrefix("The numbers could not be read"))
        #expect(!page.html.contains("Loading…"))
        #expect(page.html.components(separatedBy: errors[0]).count - 1 == DashboardLayout.default.sections.count)
    }
}

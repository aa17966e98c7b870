import Componentry
import ComponentryList
import Foundation
import TallyEvent
import TallyStore
import Testing

@testable import TallyDashboard

/// The filter bar and the funnels on the server, driven as the browser drives them: the
/// filter in the page's address, its chips and sheet, every section counted under it, the
/// funnel sections and the ad-hoc funnel sheet.
@MainActor
@Suite struct FilterBarTests {
    let store: EventStore
    let app: App
    static let day = "2026-11-20"

    /// Three users on the day: ann (pro, 2.0 on iOS) and bob (free, 1.0 on Android) log in
    /// and create bills; cy (2.0 on Android, no plan) only logs in.
    init() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tally-filters-\(UUID()).sqlite").path
        store = try EventStore(path: path)
        let created = try await store.apps.create(name: "Bills", timeZone: "UTC")
        app = try await store.apps.update(created.app.id, segmentProperties: SegmentProperties(event: ["method"], user: ["plan"]))
        let noon = try Date("2026-11-20T12:00:00Z", strategy: .iso8601)
        func event(
            _ name: String, _ user: String, _ seconds: Double, _ version: String, _ platform: String, _ properties: [String: PropertyValue] = [:]
        )
            -> Event
        {
            let time = noon.addingTimeInterval(seconds)
            return Event(
                id: UUID(), name: name, timestamp: time, deviceTimestamp: time, userID: user, sessionID: nil, appVersion: version,
                platform: platform, properties: properties)
        }
        try await store.events.insert(
            [
                event("identify", "ann", 0, "2.0", "ios", ["plan": "pro"]), event("login", "ann", 1, "2.0", "ios", ["method": "apple"]),
                event("bill_created", "ann", 61, "2.0", "ios", ["duration_s": 10]), event("bill_created", "ann", 90, "2.0", "ios"),
                event("identify", "bob", 0, "1.0", "android", ["plan": "free"]), event("login", "bob", 1, "1.0", "android", ["method": "phone"]),
                event("bill_created", "bob", 31, "1.0", "android", ["duration_s": 30]),
                event("login", "cy", 5, "2.0", "android", ["method": "phone"]),
            ],
            app: app.id)
    }

    /// The default sections and a funnel of a login then a bill within an hour.
    static let layout: DashboardLayout = {
        var layout = DashboardLayout.default
        layout.sections.append(
            DashboardLayout.Section(
                id: "f", title: "Login to bill",
                content: .funnel(DashboardLayout.Funnel(steps: ["login", "bill_created"], window: FunnelWindow("1h")!))))
        return layout
    }()

    func page(_ filter: String = "", sheet: PageQuery.Sheet? = nil, store: EventStore? = nil, role: AppRole = .viewer) throws -> DashboardPage {
        let query = PageQuery(
            date: CalendarDay(Self.day)!, timeZone: TimeZone(identifier: "UTC"), filter: try SegmentFilter(parsing: filter), sheet: sheet)
        return DashboardPage(app: app, layout: Self.layout, query: query, store: store, role: role)
    }

    func report(_ filter: String) async throws -> DayReport {
        let query = PageQuery(date: CalendarDay(Self.day)!, timeZone: TimeZone(identifier: "UTC"), filter: try SegmentFilter(parsing: filter))
        return try await DayReport.load(from: store, app: app.id, layout: Self.layout, query: query)
    }

    /// The text of the element whose `data-metric` is `key`.
    func metric(_ key: String, in html: String) -> String? {
        html.firstMatch(of: try! Regex(#"data-metric="\#(key)">([^<]*)<"#))?.output[1].substring.map(String.init)
    }

    // MARK: The address

    /// The filter is `filters=` in Plausible's syntax, readable in the address: only what a
    /// query value cannot hold is encoded, and it reads back the same.
    @Test func theAddressKeepsTheFilterReadably() throws {
        let parameters = ["date": Self.day, "filters": "app_version==3.3.0|3.2.0;plan!=free"]
        let query = try PageQuery(parameters, today: CalendarDay(Self.day)!)
        #expect(query.filter == SegmentFilter([.is("app_version", "3.3.0", "3.2.0"), .isNot("plan", "free")]))
        #expect(query.queryString == "date=2026-11-20&filters=app_version==3.3.0%7C3.2.0;plan!=free")

        let odd = SegmentFilter([.is("note", "a&b+c 50%|x"), .is("platform", "iOS")])
        let text = PageQuery(date: CalendarDay(Self.day)!, filter: odd, sheet: .date).queryString
        #expect(text.hasSuffix("&sheet=date"))
        let value = try #require(text.firstMatch(of: /filters=([^&]*)/)?.output.1.removingPercentEncoding)
        #expect(try SegmentFilter(parsing: value) == odd)
    }

    /// A filter that does not read is not a failed page: the page shows every event and
    /// says why; other bad parameters are still refused.
    @Test func aMalformedFilterIsLeftOutWithItsReason() throws {
        let today = CalendarDay(Self.day)!
        #expect(throws: PageQueryError.self) { try PageQuery(["filters": "app_version=3"], today: today) }
        let (query, ignored) = try PageQuery.reading(["date": Self.day, "filters": "app_version=3"], today: today)
        #expect(query.filter.isEmpty)
        #expect(query.date == today)
        #expect(ignored?.contains("Invalid filter") == true)
        #expect(throws: PageQueryError.self) { try PageQuery.reading(["filters": "nope", "sheet": "bogus"], today: today) }

        let page = DashboardPage(app: app, layout: Self.layout, query: query, filterNotice: ignored)
        let bar = DashboardViews.filterBar(for: page)
        #expect(bar.contains(#"role="alert""#))
        #expect(bar.contains("The address&#39;s filter was left out") || bar.contains("The address's filter was left out"))
    }

    /// A filter on a property the app is not segmented by is left out too, and the notice
    /// names it and the properties there are.
    @Test func aFilterOnAnUnknownPropertyIsLeftOut() throws {
        let page = try page("country==fr;platform==ios")
        #expect(page.viewModel.query.value.filter.isEmpty)
        let notice = try #require(page.viewModel.filterNotice)
        #expect(notice.contains("country") && notice.contains("app_version, platform, method, plan"))
        #expect(!page.url.contains("filters="))
    }

    // MARK: Chips

    /// Adding a condition from the sheet's form, replacing it, removing a chip and clearing:
    /// each changes the query, the address (a new entry of the history, Back to the page
    /// before) and the chips.
    @Test func chipsComeAndGoWithTheirConditions() throws {
        let page = try page(sheet: .filter(property: nil))
        var messages: [PageMessage] = []
        page.outbox = { messages.append($0) }
        func bar() -> String? {
            messages.last?.patches.lazy.compactMap { if case .replace("filter-bar", let html) = $0 { html } else { nil } }.first
        }
        try page.receive(BrowserEvent(section: nil, name: "add-filter", value: "property=platform&operator=is&value=ios&value=android"))
        #expect(page.viewModel.query.value.filter == SegmentFilter([.is("platform", "ios", "android")]))
        #expect(page.viewModel.query.value.sheet == nil, "the sheet closes once its filter is applied")
        #expect(messages.last?.url == "/apps/\(app.id.rawValue)?date=2026-11-20&tz=UTC&filters=platform==ios%7Candroid")
        #expect(messages.last?.back == "/apps/\(app.id.rawValue)?date=2026-11-20&tz=UTC")
        #expect(bar()?.contains("Platform is ios or android") == true)
        #expect(bar()?.contains(#"data-event="remove-filter" data-value="0""#) == true)

        try page.receive(BrowserEvent(section: nil, name: "add-filter", value: "property=plan&operator=is_not&other=%20free%20"))
        #expect(page.viewModel.query.value.filter == SegmentFilter([.is("platform", "ios", "android"), .isNot("plan", "free")]))
        #expect(bar()?.contains("plan is not free") == true)

        try page.receive(BrowserEvent(section: nil, name: "add-filter", value: "property=platform&operator=is_not&value=android"))
        #expect(page.viewModel.query.value.filter == SegmentFilter([.isNot("platform", "android"), .isNot("plan", "free")]), "one chip per property")

        try page.receive(BrowserEvent(section: nil, name: "remove-filter", value: "0"))
        #expect(page.viewModel.query.value.filter == SegmentFilter([.isNot("plan", "free")]))
        #expect(messages.last?.back?.contains("filters=platform!=android;plan!=free") == true)

        try page.receive(BrowserEvent(section: nil, name: "filters", value: ""))
        #expect(page.viewModel.query.value.filter.isEmpty)
        #expect(bar()?.contains("chip-remove") == false)

        for (name, value) in [
            ("add-filter", "property=country&value=fr"), ("add-filter", "property=platform&operator=is"), ("remove-filter", "3"),
            ("filters", "plan=pro"), ("filter-property", "country"),
        ] {
            #expect(throws: BrowserEventError.self) { try page.receive(BrowserEvent(section: nil, name: name, value: value)) }
        }
        page.outbox = nil
        messages = []
        page.outbox = { messages.append($0) }
        try page.receive(BrowserEvent(section: nil, name: "filters", value: "country==fr"))
        #expect(page.viewModel.query.value.filter.isEmpty, "a property the app has not is refused")
        #expect(messages.last?.error?.contains("country") == true)
    }

    /// The filter sheet opens through the mediator by its URL, on the property picked, with
    /// the condition the filter has on it ticked.
    @Test func theFilterSheetOpensThroughTheMediatorOnAProperty() throws {
        let page = try page("plan==pro")
        let recording = Mediator.dashboard.recordCalls()
        defer { recording.dispose() }
        var slots: [String] = []
        page.outbox = { message in
            for case .replace("sheet-slot", let html) in message.patches { slots.append(html) }
        }
        try page.receive(BrowserEvent(section: nil, name: "sheet", value: "filter"))
        #expect(slots.last?.contains(#"<select id="filter-property" name="property" data-event="filter-property">"#) == true)
        #expect(slots.last?.contains(#"<optgroup label="User properties"><option value="plan">plan</option>"#) == true)
        try page.receive(BrowserEvent(section: nil, name: "filter-property", value: "plan"))
        #expect(page.url.hasSuffix("sheet=filter&property=plan"))
        #expect(slots.last?.contains(#"<input type="checkbox" name="value" value="pro" checked>"#) == true)
        #expect(slots.last?.contains(#"class="sheet still""#) == true, "the same sheet again does not slide in again")
        #expect(recording.calls.contains { $0.target == "sheet" && $0.action == "filter" })
    }

    /// The values seen lately are offered for versions and platforms, and a user property's
    /// values are the users' own, however long ago they were told: here behind more events
    /// than the sheet reads lately.
    @Test func theFilterSheetSuggestsValuesSeenLatelyAndEveryUsersProperty() async throws {
        let later = try Date("2026-11-20T13:00:00Z", strategy: .iso8601)
        let logins = (0...DashboardPage.suggestionWindow).map { index in
            Event(
                id: UUID(), name: "login", timestamp: later.addingTimeInterval(Double(index)), userID: "cy", appVersion: "2.0",
                platform: "android")
        }
        try await store.events.insert(logins, app: app.id)
        let page = try page(sheet: .filter(property: "plan"), store: store)
        await page.refresh()
        let sheet = try Mediator.dashboard.sheet(.filter(property: "plan"), of: page)
        #expect(sheet.contains(#"value="pro""#) && sheet.contains(#"value="free""#))
        let platforms = try Mediator.dashboard.sheet(.filter(property: "platform"), of: page)
        #expect(platforms.contains(#"value="android""#) && !platforms.contains(#"value="ios""#), "ios is older than the window")
    }

    /// Back and forward: the page shows the address the browser went to, its filter with it;
    /// a filter there that does not read is left out with a notice.
    @Test func navigatingRestoresTheFilter() throws {
        let page = try page()
        try page.receive(BrowserEvent(section: nil, name: "navigate", value: "?date=2026-11-19&tz=UTC&filters=platform==ios"))
        #expect(page.viewModel.query.value.filter == SegmentFilter([.is("platform", "ios")]))
        #expect(page.viewModel.query.value.date == CalendarDay("2026-11-19"))
        #expect(page.viewModel.filterNotice == nil)
        try page.receive(BrowserEvent(section: nil, name: "navigate", value: "date=2026-11-19&filters=platform"))
        #expect(page.viewModel.query.value.filter.isEmpty)
        #expect(page.viewModel.filterNotice?.contains("Invalid filter") == true)
        #expect(throws: BrowserEventError.self) { try page.receive(BrowserEvent(section: nil, name: "navigate", value: "sheet=nope")) }
    }

    // MARK: Sections under the filter

    /// Every section counts under the filter: headlines, versions, events, averages, the
    /// live feed, the funnel.
    @Test func everySectionCountsUnderTheFilter() async throws {
        let all = try await report("")
        #expect(all.metrics.dau == 3)
        let version = try await report("app_version==2.0")
        #expect(version.metrics.dau == 2)
        #expect(version.metrics.versions == ["2.0": 2])
        let pro = try await report("plan==pro")
        #expect(pro.metrics.dau == 1)
        #expect(pro.metrics.events["bill_created"] == 2)
        #expect(pro.trend?.dau.last == 1)
        #expect(all.values["record_seconds"]?.text == "20.0 s", "(10 + 30) / 2")
        #expect(pro.values["record_seconds"]?.text == "10.0 s", "ann's bill alone")
        #expect(pro.values["empty_note"]?.detail == "2 of 2")
        guard case .counted(let funnel)? = pro.funnels["f"] else {
            Issue.record("the funnel was not counted: \(String(describing: pro.funnels["f"]))")
            return
        }
        #expect(funnel.steps.map(\.users) == [1, 1])

        #expect(Set(pro.latest.map(\.userID)) == ["ann"], "the live feed shows the segment's events")
        let page = try page("plan==pro")
        _ = page.show(pro)
        #expect(metric("dau", in: page.html) == "1")
        #expect(metric("record_seconds", in: page.html) == "10.0 s")

        let android = try await report("platform==android")
        #expect(android.latest.map(\.userID).sorted() == ["bob", "bob", "bob", "cy"])
    }

    /// A funnel section: a bar per step, its users, conversion from the first step, the
    /// drop from the one before and the median time, and the conversion below.
    @Test func aFunnelSectionDrawsItsSteps() async throws {
        let page = try page()
        let patches = page.show(try await report(""))
        #expect(!patches.isEmpty)
        let html = page.html
        #expect(metric("funnel:f:1", in: html) == "3")
        #expect(metric("funnel:f:2", in: html) == "2")
        #expect(html.contains("1. login"))
        #expect(html.contains("67% of step 1 · 33% dropped · median "))
        #expect(html.contains(#"<rect class="fill" width="66.7" height="8"/>"#))
        #expect(html.contains("67% converted within 1 hour"))
        #expect(!html.contains("style=\""), "bars are SVG attributes, not inline styles")
    }

    /// A funnel on a property the app is not segmented by says why, and the page keeps the rest.
    @Test func aFunnelTheStoreRefusesSaysWhy() async throws {
        var layout = Self.layout
        layout.sections.append(
            DashboardLayout.Section(
                id: "g", title: "G", content: .funnel(DashboardLayout.Funnel(steps: ["login", FunnelStep("bill_created", [.is("nope", "1")])]))))
        let report = try await DayReport.load(
            from: store, app: app.id, layout: layout, query: PageQuery(date: CalendarDay(Self.day)!, timeZone: TimeZone(identifier: "UTC")))
        guard case .failed(let reason)? = report.funnels["g"] else {
            Issue.record("expected a failure, got \(String(describing: report.funnels["g"]))")
            return
        }
        #expect(reason.contains("nope"))
        #expect(report.metrics.dau == 3)
    }

    // MARK: The ad-hoc funnel sheet

    /// Steps picked from the app's event names, a window and a breakdown: the sheet counts
    /// them under the page's filter, one row per value of the breakdown.
    @Test func theFunnelSheetCountsPickedStepsWithABreakdown() async throws {
        let page = try page(store: store)
        await page.refresh()
        try page.receive(BrowserEvent(section: nil, name: "sheet", value: "funnel"))
        #expect(page.sheetHTML.contains("Pick at least two steps"))
        #expect(page.sheetHTML.contains(#"<option value="bill_created">bill_created</option>"#), "the day's event names are offered")

        // The script's form writes a space as `+`: an event name with a space reads whole.
        let spaced = try #require(FunnelQuery(form: "step=bill+created&step=app%2Bopened"))
        #expect(spaced.steps.map(\.event) == ["bill created", "app+opened"])
        try page.receive(BrowserEvent(section: nil, name: "funnel", value: "step=login&step=bill_created&step=&window=1h&breakdown=plan"))
        #expect(page.url.hasSuffix("sheet=funnel&steps=login,bill_created&window=1h&breakdown=plan"))
        await page.loadSheetData()
        _ = page.refreshSheet()
        let sheet = page.sheetHTML
        #expect(metric("funnel-step:1", in: sheet) == "3")
        #expect(metric("funnel-step:2", in: sheet) == "2")
        #expect(sheet.contains(#"<tr data-breakdown-value="pro"><th scope="row">pro</th><td>1</td><td>1 <small>100%</small></td><td>100%</td></tr>"#))
        #expect(sheet.contains(#"<tr data-breakdown-value="free">"#))
        #expect(sheet.contains(#"<tr data-breakdown-value=""><th scope="row">(none)</th><td>1</td><td>0 <small>0%</small></td><td>0%</td></tr>"#))
        #expect(sheet.contains(#"<select id="funnel-step-3" name="step">"#), "a third step can be added")

        // Under the page's filter.
        try page.receive(BrowserEvent(section: nil, name: "add-filter", value: "property=platform&operator=is&value=android"))
        await page.loadSheetData()
        _ = page.refreshSheet()
        #expect(metric("funnel-step:1", in: page.sheetHTML) == "2")
        #expect(page.sheetHTML.contains("Platform is android"))

        #expect(throws: BrowserEventError.self) {
            try page.receive(BrowserEvent(section: nil, name: "funnel", value: (0..<11).map { "step=e\($0)" }.joined(separator: "&")))
        }
        #expect(throws: BrowserEventError.self) { try page.receive(BrowserEvent(section: nil, name: "funnel", value: "step=a&step=b&window=2w")) }
    }

    /// The funnel sheet is a deep link: its address names its steps, window and breakdown.
    @Test func theFunnelSheetIsADeepLink() throws {
        let today = CalendarDay(Self.day)!
        let query = try PageQuery(["sheet": "funnel", "steps": "login,screen_view[screen==Home],bill_created", "window": "30m"], today: today)
        #expect(
            query.sheet
                == .funnel(
                    FunnelQuery(steps: ["login", FunnelStep("screen_view", [.is("screen", "Home")]), "bill_created"], window: FunnelWindow("30m")!)))
        #expect(query.queryString == "date=2026-11-20&sheet=funnel&steps=login,screen_view%5Bscreen==Home%5D,bill_created&window=30m")
        #expect(throws: PageQueryError.self) { try PageQuery(["sheet": "funnel", "window": "0d"], today: today) }
        #expect(throws: PageQueryError.self) {
            try PageQuery(["sheet": "funnel", "steps": (0..<11).map { "e\($0)" }.joined(separator: ",")], today: today)
        }
    }

    /// Live updates keep each page's filter: a filtered tab and an unfiltered one of the same
    /// app each get the report of their own query.
    @Test func liveUpdatesKeepTheFilter() async throws {
        let bus = EventBus()
        let live = LiveUpdates(bus: bus, tick: .milliseconds(20)) { [store] app, query in
            try await DayReport.load(from: store, app: app, layout: Self.layout, query: query)
        }
        let all = try page()
        let pro = try page("plan==pro")
        _ = all.show(try await report(""))
        _ = pro.show(try await report("plan==pro"))
        #expect((metric("events", in: all.html), metric("events", in: pro.html)) == ("8", "4"))
        live.register(all)
        live.register(pro)
        let noon = try Date("2026-11-20T12:30:00Z", strategy: .iso8601)
        try await store.events.insert(
            ["ann", "bob"].map { user in
                Event(
                    id: UUID(), name: "bill_created", timestamp: noon, deviceTimestamp: noon, userID: user, sessionID: nil, appVersion: "2.0",
                    platform: "ios", properties: [:])
            },
            app: app.id)
        bus.post(EventsCommitted(app: app.id, count: 2))
        for _ in 0..<500 where metric("events", in: all.html) != "10" || metric("events", in: pro.html) != "5" {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect((metric("events", in: all.html), metric("events", in: pro.html)) == ("10", "5"))
        #expect(pro.viewModel.query.value.filter == SegmentFilter([.is("plan", "pro")]))
    }

    // MARK: Saved segments

    /// The bar lists the app's saved segments as links that set the whole filter, the one
    /// shown marked; with neither segments nor a filter it has no Segments menu.
    @Test func savedSegmentsAreListedWhenThereAreAny() throws {
        let none = try page()
        #expect(!DashboardViews.filterBar(for: none).contains("Segments"))
        let segment = SavedSegment(name: "Pro on iOS", filter: SegmentFilter([.is("plan", "pro"), .is("platform", "ios")]), createdAt: Date())
        let page = DashboardPage(
            app: app, layout: Self.layout, query: PageQuery(date: CalendarDay(Self.day)!), savedSegments: [segment], role: .editor)
        let bar = DashboardViews.filterBar(for: page)
        #expect(bar.contains(#"data-event="filters" data-value="plan==pro;platform==ios" title="plan is pro; Platform is ios">Pro on iOS</a>"#))
        #expect(bar.contains(#"data-event="delete-segment" data-value="Pro on iOS""#))
        #expect(!bar.contains("save-segment"))  // no filter to save
        try page.receive(BrowserEvent(section: nil, name: "filters", value: segment.filter.description))
        #expect(page.viewModel.query.value.filter == segment.filter)
        #expect(page.url.contains("filters=plan==pro;platform==ios"))
        #expect(DashboardViews.filterBar(for: page).contains(#"aria-current="true">Pro on iOS</a>"#))
    }

    /// The bar's form saves the page's filter under a name, in the store, and the bar lists
    /// it at once; its × deletes it. Refusals are said, and change nothing.
    @Test func aSegmentIsSavedFromTheBarAndDeleted() async throws {
        let page = try page("plan==pro", store: store, role: .editor)
        var messages: [PageMessage] = []
        page.outbox = { messages.append($0) }
        #expect(DashboardViews.filterBar(for: page).contains(#"data-event="save-segment""#))

        // The script sends the form as `URLSearchParams` writes it: a space as `+`, a `+` as `%2B`.
        #expect(DashboardPage.formItems("name=a+b%2Bc")?.first?.value == "a b+c")
        try page.receive(BrowserEvent(section: nil, name: "save-segment", value: "name=+Pro+users+"))
        for _ in 0..<500 where page.viewModel.savedSegments.value.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        #expect(page.viewModel.savedSegments.value.map(\.name) == ["Pro users"])
        #expect(try await store.segments.saved(app: app.id).map(\.filter) == [SegmentFilter([.is("plan", "pro")])])
        let redrawn = messages.flatMap(\.patches).compactMap { patch -> String? in
            if case .replace(id: "filter-bar", let html) = patch { html } else { nil }
        }
        #expect(redrawn.last?.contains(#"aria-current="true">Pro users</a>"#) == true)
        // A page opened later lists it too.
        let later = try await DashboardPage(
            app: app, layout: Self.layout, query: PageQuery(date: CalendarDay(Self.day)!), store: store,
            savedSegments: store.segments.saved(app: app.id))
        #expect(DashboardViews.filterBar(for: later).contains(">Pro users</a>"))

        await page.saveSegment(named: "bad\u{7}name")
        #expect(messages.last?.error?.contains("Invalid segment name") == true)
        let unfiltered = try self.page(store: store, role: .editor)
        unfiltered.outbox = { messages.append($0) }
        await unfiltered.saveSegment(named: "Everything")
        #expect(messages.last?.error?.hasPrefix("Add a filter first") == true)
        #expect(throws: BrowserEventError.self) {
            try page.receive(BrowserEvent(section: nil, name: "save-segment", value: "name=" + String(repeating: "x", count: 2_000)))
        }
        #expect(throws: BrowserEventError.self) { try page.receive(BrowserEvent(section: nil, name: "save-segment", value: "other=x")) }
        #expect(try await store.segments.saved(app: app.id).map(\.name) == ["Pro users"])

        try page.receive(BrowserEvent(section: nil, name: "delete-segment", value: "Pro users"))
        for _ in 0..<500 where !page.viewModel.savedSegments.value.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        #expect(try await store.segments.saved(app: app.id).isEmpty)
        #expect(!DashboardViews.filterBar(for: page).contains(">Pro users</a>"))
        // The filter itself stays: only the segment is gone.
        #expect(page.viewModel.query.value.filter == SegmentFilter([.is("plan", "pro")]))
    }
}

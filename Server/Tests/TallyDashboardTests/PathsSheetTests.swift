import Componentry
import ComponentryList
import Foundation
import TallyEvent
import Testing

@testable import TallyDashboard
@testable import TallyStore

/// The paths sheet on the server, driven as the browser drives them: its drawing (ranked
/// columns with proportional bars, the store's special steps in words, the table), what it
/// reads (the store's answer for the page's range, filter and debug builds, again as the
/// form changes and as events arrive, a newer query's answer never replaced), the links of
/// the Screens section and the filter bar, and hostile input.
@MainActor
@Suite struct PathsSheetTests {
    let store: EventStore
    let app: App
    static let day = "2026-11-20"
    /// A screen with every character HTML and URLs treat specially.
    static let hostile = #"<img src=x onerror="alert('1')"> & +%20#?="#

    /// On the day, five sessions show Home: ann's goes on to BillEditor then Calendar, bob's
    /// to Calendar, cy's ends there, dan's (on Android) goes to BillEditor, and eve's to the
    /// hostile screen. The day before, fay's goes from Home to Settings. Home is the day's
    /// most shown screen.
    init() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tally-test-paths-\(UUID()).sqlite").path
        store = try EventStore(path: path)
        app = try await store.apps.create(name: "Bills", timeZone: "UTC").app
        var events: [Event] = []
        func session(_ user: String, _ start: String, _ screens: [String], platform: String = "ios") {
            let time = try! Date(start, strategy: .iso8601)
            for (index, screen) in screens.enumerated() {
                events.append(
                    Event(
                        id: UUID(), name: "screen_view", timestamp: time.addingTimeInterval(Double(index) * 60), userID: user,
                        sessionID: "\(user)-1", platform: platform, properties: ["screen": .string(screen)]))
            }
        }
        session("ann", "2026-11-20T09:00:00Z", ["Home", "BillEditor", "Calendar"])
        session("bob", "2026-11-20T10:00:00Z", ["Home", "Calendar"])
        session("cy", "2026-11-20T11:00:00Z", ["Home"])
        session("dan", "2026-11-20T12:00:00Z", ["Home", "BillEditor"], platform: "android")
        session("eve", "2026-11-20T13:00:00Z", ["Home", Self.hostile])
        session("fay", "2026-11-19T13:00:00Z", ["Home", "Settings"])
        events.append(
            Event(id: UUID(), name: "login", timestamp: try Date("2026-11-20T09:30:00Z", strategy: .iso8601), userID: "ann", sessionID: "ann-1"))
        try await store.events.insert(events, app: app.id)
    }

    /// A page of the app on `sheet`, its report and sheet read and drawn.
    func page(_ sheet: PageQuery.Sheet?, from: String? = nil, filter: String = "", debug: Bool = false) async throws -> DashboardPage {
        let query = PageQuery(
            date: CalendarDay(Self.day)!, from: from.flatMap { CalendarDay($0) }, debug: debug, filter: try SegmentFilter(parsing: filter),
            sheet: sheet)
        let page = DashboardPage(app: app, layout: .default, query: query, store: store)
        await page.refresh()
        return page
    }

    /// The steps the sheet's columns draw: per column, each step's `data-step` and sessions.
    func columns(_ html: String) -> [[Step]] {
        var columns: [[Step]] = []
        for match in html.matches(of: /<g class="path-step[^"]*" data-level="(\d+)" data-step="([^"]*)" data-sessions="(\d+)">/) {
            let level = Int(match.1)!
            while columns.count <= level { columns.append([]) }
            columns[level].append(Step(String(match.2), Int(match.3)!))
        }
        return columns
    }

    /// A step as a column draws it, its name escaped.
    struct Step: Equatable, CustomStringConvertible {
        var step: String
        var sessions: Int
        init(_ step: String, _ sessions: Int) { (self.step, self.sessions) = (step, sessions) }
        var description: String { "\(step): \(sessions)" }
    }

    /// The columns `paths` should draw.
    func columns(of paths: Paths) -> [[Step]] {
        [[Step(HTMLText.escape(paths.start), paths.sessions)]] + paths.levels.map { $0.map { Step(HTMLText.escape($0.step), $0.sessions) } }
    }

    /// The bars' widths of `html`, in document order.
    func barWidths(_ html: String) -> [Double] {
        html.matches(of: /<rect class="fill" x="[^"]*" y="[^"]*" width="([^"]*)"/).map { Double(String($0.1))! }
    }

    // MARK: Drawing

    /// Column 0 is the start, column k the level-k steps, each with a bar as long as its
    /// share of the start's sessions; the store's special steps read as words; the table
    /// lists the same numbers.
    @Test func columnsDrawProportionalBarsAndNameTheSpecialSteps() throws {
        let paths = Paths(
            from: Self.day, to: Self.day, timeZone: "UTC", start: "Home", kind: .screen, direction: .after, sessions: 200,
            levels: [
                [.init(step: "BillEditor", sessions: 100), .init(step: Paths.end, sessions: 60), .init(step: Paths.other, sessions: 40)],
                [.init(step: Paths.end, sessions: 150), .init(step: "Calendar", sessions: 50)],
            ])
        let chart = PathChart(paths: paths, names: ["BillEditor": "Bill editor"])
        let html = chart.html
        #expect(columns(html) == columns(of: paths))
        let width = PathChart.columnWidth
        #expect(barWidths(html) == [200, 100, 60, 40, 150, 50].map { width * Double($0) / 200 })
        #expect(html.contains(#">Bill editor</text>"#), "a screen by its layout name")
        #expect(html.contains(#">Session ended</text>"#) && html.contains(#">Other</text>"#))
        #expect(!html.contains(">$end<") && !html.contains(">$other<"))
        #expect(html.contains(#"<g class="path-step special" data-level="1" data-step="$end""#))
        #expect(html.contains(#">Start</text>"#) && html.contains(#">Step 1</text>"#) && html.contains(#">Step 2</text>"#))
        #expect(html.components(separatedBy: "class=\"path-band\"").count - 1 == 2, "a band between each two columns")
        #expect(html.contains(#"width="522" height="142" viewBox="0 0 522 142""#), "three columns of 150 and two gaps; three rows")

        // The table: a row per step, its level, name, sessions and share.
        let table = try #require(html.firstMatch(of: /<details class="chart-table"><summary>Table<\/summary>.*<\/details>/)).output
        #expect(table.components(separatedBy: "<tr data-level=").count - 1 == 6)
        #expect(
            table.contains(
                #"<tr data-level="1"><th scope="row">Step 1</th><td class="step">Bill editor</td><td data-n="100">100</td><td>50%</td></tr>"#))
        #expect(
            table.contains(
                #"<tr data-level="2"><th scope="row">Step 2</th><td class="step">Session ended</td><td data-n="150">150</td><td>75%</td></tr>"#))
        #expect(
            table.contains(#"<tr data-level="0"><th scope="row">Start</th><td class="step">Home</td><td data-n="200">200</td><td>100%</td></tr>"#))

        // Before the start: levels count back, and a session with no step there began.
        let before = PathChart(
            paths: Paths(
                from: Self.day, to: Self.day, timeZone: "UTC", start: "login", kind: .event, direction: .before, sessions: 3,
                levels: [[.init(step: Paths.beginning, sessions: 2), .init(step: "app_open", sessions: 1)]]))
        #expect(before.html.contains(#">Session start</text>"#) && before.html.contains(#">1 step before</text>"#))
        #expect(barWidths(before.html) == [3, 2, 1].map { width * Double($0) / 3 })
    }

    /// Every text of a step or start is escaped, in the columns, their titles and the table;
    /// a long name is cut short in its column only.
    @Test func stepsAreEscapedAndLongNamesCutShort() {
        let long = String(repeating: "x", count: 40)
        let paths = Paths(
            from: Self.day, to: Self.day, timeZone: "UTC", start: Self.hostile, kind: .screen, direction: .after, sessions: 2,
            levels: [[.init(step: "<script>alert(1)</script>", sessions: 1), .init(step: long, sessions: 1)]])
        let html = PathChart(paths: paths).html
        #expect(!html.contains("<script") && !html.contains("<img"))
        #expect(html.contains(#"data-step="&lt;script&gt;alert(1)&lt;/script&gt;""#))
        #expect(html.contains("<title>&lt;script&gt;alert(1)&lt;/script&gt;: 1 sessions, 50%</title>"))
        #expect(html.contains(#"<td class="step">\#(HTMLText.escape(Self.hostile))</td>"#))
        #expect(html.contains(">\(String(repeating: "x", count: PathChart.nameLength - 1))…</text>"), "cut short in the column")
        #expect(html.contains(#"<td class="step">\#(long)</td>"#) && html.contains("<title>\(long): 1 sessions, 50%</title>"), "whole elsewhere")
    }

    // MARK: Reading

    /// The sheet shows the store's answer for the page's range and filter, and the form the
    /// day's screens to start from, most shown first.
    @Test func theSheetShowsTheStoresAnswer() async throws {
        let page = try await page(.paths(PathQuery(start: "Home")))
        let expected = try await store.metrics.paths(
            from: "Home", kind: .screen, in: ReadScope(app: app.id, days: CalendarDay(Self.day)!...CalendarDay(Self.day)!))
        #expect(expected.sessions == 5 && expected.levels.count == PathQuery.defaultDepth)
        #expect(columns(page.sheetHTML) == columns(of: expected))
        #expect(page.sheetHTML.contains(#"<strong data-metric="paths-sessions" data-n="5">5</strong>"#))
        #expect(page.sheetHTML.contains(#"data-sheet="paths""#) && page.sheetHTML.contains("Paths from Home</h2>"))
        let starts = page.sheetHTML.firstMatch(of: /<select id="paths-start" name="start">(.*?)<\/select>/).map { String($0.1) } ?? ""
        #expect(starts.hasPrefix(#"<option value="Home" selected>Home</option><option value="BillEditor">Bill editor</option>"#))
        #expect(page.sheetHTML.contains(#"<option value="after" selected>"#) && page.sheetHTML.contains(#"<option value="3" selected>3</option>"#))

        // The range and the filter apply.
        let week = try await self.page(.paths(PathQuery(start: "Home")), from: "2026-11-19")
        let weekly = try await store.metrics.paths(
            from: "Home", kind: .screen, in: ReadScope(app: app.id, days: CalendarDay("2026-11-19")!...CalendarDay(Self.day)!))
        #expect(weekly.sessions == 6 && weekly.levels[0].contains { $0.step == "Settings" })
        #expect(columns(week.sheetHTML) == columns(of: weekly))
        let android = try await self.page(.paths(PathQuery(start: "Home")), filter: "platform==android")
        let filtered = try await store.metrics.paths(
            from: "Home", kind: .screen,
            in: ReadScope(app: app.id, days: CalendarDay(Self.day)!...CalendarDay(Self.day)!, filter: SegmentFilter([.is("platform", "android")])))
        #expect(filtered.sessions == 1)
        #expect(columns(android.sheetHTML) == columns(of: filtered))
        #expect(android.sheetHTML.contains("Platform is android"))

        // Events as steps, before the start.
        let login = try await self.page(.paths(PathQuery(start: "login", kind: .event, direction: .before, depth: 2)))
        let before = try await store.metrics.paths(
            from: "login", kind: .event, direction: .before, depth: 2,
            in: ReadScope(app: app.id, days: CalendarDay(Self.day)!...CalendarDay(Self.day)!))
        #expect(columns(login.sheetHTML) == columns(of: before))
        #expect(login.sheetHTML.contains(">2 steps before</text>"))
    }

    /// Nothing to show is said so: a start no session showed, the debug builds' page (which
    /// has no events), and a sheet with no start yet.
    @Test func emptyStatesAreSaidSo() async throws {
        for page in [
            try await page(.paths(PathQuery(start: "Nowhere"))), try await page(.paths(PathQuery(start: "Home")), debug: true),
        ] {
            #expect(page.sheetHTML.contains("No session showed this screen in the range."))
            #expect(!page.sheetHTML.contains("<svg class=\"paths\""))
        }
        let event = try await page(.paths(PathQuery(start: "nothing", kind: .event)))
        #expect(event.sheetHTML.contains("No session had this event in the range."))
        let draft = try await page(.paths(PathQuery()))
        #expect(draft.sheetHTML.contains("Pick a screen to start from."))
        #expect(draft.sheetHTML.contains(#"<option value="">Choose a screen</option>"#))
        #expect(draft.viewModel.paths == nil, "nothing to count")
    }

    /// Until the store answers the sheet says it is counting; a refusal is shown as an error.
    @Test func countingAndErrorsAreShown() async throws {
        let page = DashboardPage(app: app, layout: .default, query: PageQuery(date: CalendarDay(Self.day)!), store: store)
        try page.receive(BrowserEvent(section: nil, name: "sheet", value: "paths:Home"))
        #expect(page.sheetHTML.contains("Counting…"))
        page.viewModel.paths = (page.viewModel.query.value, .failed("The store said no."))
        _ = page.refreshSheet()
        #expect(page.sheetHTML.contains(#"<p class="error" role="alert">The store said no.</p>"#))
        #expect(!page.sheetHTML.contains("Counting…"))
    }

    /// What a query the page has left reads is dropped: a newer query's answer is not replaced.
    @Test func aNewerQueryWins() async throws {
        let page = try await page(.paths(PathQuery(start: "Home")))
        let shown = try #require(page.viewModel.paths)
        let stale = page.viewModel.query.value.with { $0.sheet = .paths(PathQuery(start: "Calendar", direction: .before)) }
        #expect(await page.readPaths(PathQuery(start: "Calendar", direction: .before), for: stale, force: true, from: store) == false)
        #expect(page.viewModel.paths?.query == shown.query)
        #expect(page.viewModel.paths?.report == shown.report)
        // Read again for the same query only when forced.
        #expect(await page.readPaths(PathQuery(start: "Home"), for: shown.query, force: false, from: store) == false)
        #expect(await page.readPaths(PathQuery(start: "Home"), for: shown.query, force: true, from: store))
    }

    /// The form, as the page's script sends it, changes the sheet and its address; another
    /// kind of step starts from that kind's first; the counts follow.
    @Test func theFormChangesTheQuery() async throws {
        let page = try await page(.paths(PathQuery(start: "Home")))
        var messages: [PageMessage] = []
        page.outbox = { messages.append($0) }
        try page.receive(
            BrowserEvent(section: nil, name: "paths", value: "date=2026-11-20&sheet=paths&start=Home&kind=screen&direction=before&depth=2"))
        #expect(page.viewModel.query.value.sheet == .paths(PathQuery(start: "Home", direction: .before, depth: 2)))
        #expect(messages.last?.url == "/apps/\(app.id.rawValue)?date=2026-11-20&sheet=paths&start=Home&kind=screen&direction=before&depth=2")
        #expect(page.sheetHTML.contains("Counting…"))
        await page.loadSheetData()
        _ = page.refreshSheet()
        let before = try await store.metrics.paths(
            from: "Home", kind: .screen, direction: .before, depth: 2,
            in: ReadScope(app: app.id, days: CalendarDay(Self.day)!...CalendarDay(Self.day)!))
        #expect(columns(page.sheetHTML) == columns(of: before))
        #expect(columns(page.sheetHTML).count == 3)
        #expect(page.sheetHTML.contains(">Session start</text>"))

        // A space is written `+` by the script's form.
        try page.receive(BrowserEvent(section: nil, name: "paths", value: "start=Bill+editor&kind=screen&depth=2"))
        #expect(page.viewModel.query.value.sheet == .paths(PathQuery(start: "Bill editor", depth: 2)))

        // Events instead of screens: the day's most frequent event is the start.
        try page.receive(BrowserEvent(section: nil, name: "paths", value: "start=Home&kind=event&direction=after&depth=2"))
        #expect(page.viewModel.query.value.sheet == .paths(PathQuery(start: "screen_view", kind: .event, depth: 2)))
    }

    /// New events while the sheet is open count again: the page's report arriving recounts.
    @Test func newEventsAreCounted() async throws {
        let page = try await page(.paths(PathQuery(start: "Home")))
        #expect(columns(page.sheetHTML).first == [Step("Home", 5)])
        let time = try Date("2026-11-20T15:00:00Z", strategy: .iso8601)
        try await store.events.insert(
            [Event(id: UUID(), name: "screen_view", timestamp: time, userID: "gus", sessionID: "g", properties: ["screen": "Home"])], app: app.id)
        let query = page.viewModel.query.value
        let report = try await DayReport.load(from: store, app: app.id, layout: .default, query: query.with { $0.sheet = nil })
        page.eventBus.post(ReportArrived(query: query.with { $0.sheet = nil }, report: report))
        for _ in 0..<500 where columns(page.sheetHTML).first != [Step("Home", 6)] { try await Task.sleep(for: .milliseconds(10)) }
        #expect(columns(page.sheetHTML).first == [Step("Home", 6)])
    }

    // MARK: Links

    /// Each row of the Screens section links to its screen's paths sheet, which the page's
    /// script opens live; the link is the address the sheet then has, for any screen.
    @Test func screenRowsLinkToTheirPaths() async throws {
        let page = try await page(nil, filter: "platform==ios")
        let html = page.html
        let link = page.viewModel.pathsLink("Home")
        #expect(link == "?" + page.viewModel.query.value.with { $0.sheet = .paths(PathQuery(start: "Home")) }.queryString)
        #expect(link == "?date=2026-11-20&filters=platform==ios&sheet=paths&start=Home&kind=screen")
        #expect(
            html.contains(
                #"<a class="detail paths-link" href="?date=2026-11-20&amp;filters=platform==ios&amp;sheet=paths&amp;start=BillEditor&amp;kind=screen" data-event="sheet" data-value="paths:BillEditor" aria-label="Paths from Bill editor""#
            ))
        let hostile = page.viewModel.pathsLink(Self.hostile)
        #expect(html.contains(#"href="\#(HTMLText.escape(hostile))" data-event="sheet" data-value="paths:\#(HTMLText.escape(Self.hostile))""#))
        #expect(!html.contains("<img"))
        #expect(html.components(separatedBy: "class=\"detail paths-link\"").count - 1 == 4, "one per screen of the day")

        // The address reads back as the same sheet.
        var parameters: [String: String] = [:]
        for item in URLComponents(string: hostile)?.queryItems ?? [] { parameters[item.name] = item.value }
        #expect(try PageQuery(parameters, today: CalendarDay(Self.day)!).sheet == .paths(PathQuery(start: Self.hostile)))

        // A click opens it through the mediator, under the same address.
        let recording = Mediator.dashboard.recordCalls()
        defer { recording.dispose() }
        try page.receive(BrowserEvent(section: "screens", name: "sheet", value: "paths:\(Self.hostile)"))
        #expect(page.url == "/apps/\(app.id.rawValue)\(hostile)")
        #expect(recording.calls.contains { $0.target == "sheet" && $0.action == "paths" })
        await page.loadSheetData()
        _ = page.refreshSheet()
        #expect(columns(page.sheetHTML).first == [Step(HTMLText.escape(Self.hostile), 1)])
        #expect(page.sheetHTML.contains("Paths from \(HTMLText.escape(Self.hostile))</h2>"))
        #expect(!page.sheetHTML.contains("<img"))
    }

    /// The filter bar's Paths button opens the sheet on the page's most shown screen.
    @Test func theFilterBarOpensThePathsOfTheFirstScreen() async throws {
        let page = try await page(nil)
        let bar = DashboardViews.filterBar(for: page)
        #expect(
            bar.contains(
                #"<a id="paths-button" class="button compact" href="?date=2026-11-20&amp;sheet=paths&amp;start=Home&amp;kind=screen" data-event="sheet" data-value="paths:Home">Paths</a>"#
            ))
        let empty = DashboardPage(date: Self.day)
        #expect(
            DashboardViews.filterBar(for: empty).contains(
                #"href="?date=2026-11-20&amp;sheet=paths&amp;kind=screen" data-event="sheet" data-value="paths">"#))
    }

    /// A page of several days ranks the range's screens, events and users by version, and its
    /// Paths button opens on the range's most shown screen, though its last day has none; its
    /// configured metrics name the day they are of.
    @Test func aRangeRanksItsScreensAndStartsItsPathsFromThem() async throws {
        let query = PageQuery(date: CalendarDay("2026-11-21")!, from: CalendarDay("2026-11-19"))
        let page = DashboardPage(app: app, layout: .default, query: query, store: store)
        await page.refresh()
        #expect(page.viewModel.report.value?.metrics.screens == [:])
        let html = page.html
        for (key, views) in [("screen:Home", 6), ("screen:BillEditor", 2), ("screen:Calendar", 2), ("screen:Settings", 1)] {
            #expect(html.contains(#"data-metric="\#(key)">\#(views)<"#), "\(key)")
        }
        #expect(html.contains(#"data-metric="event:screen_view">12<"#))
        #expect(html.contains(#"data-metric="event:login">1<"#))
        #expect(html.contains(#"data-metric="version:">6<"#), "the range's six users, each once")
        #expect(html.components(separatedBy: "class=\"detail paths-link\"").count - 1 == 5, "one per screen of the range")
        #expect(DashboardViews.filterBar(for: page).contains(#"data-event="sheet" data-value="paths:Home">Paths</a>"#))
        // The configured metrics are the last day's, and say so; a page of one day does not.
        #expect(html.contains("By method, on 21 Nov") && html.contains("max 0 · on 21 Nov"))
        let day = try await self.page(nil)
        #expect(!day.html.contains("on 20 Nov") && day.html.contains("By method<"))
    }

    // MARK: Hostile input

    /// The sheet's address names its start, kind, direction and depth, and reads back; what
    /// it cannot hold is refused, naming the parameter.
    @Test func theAddressIsReadOrRefused() throws {
        let today = CalendarDay(Self.day)!
        let query = try PageQuery(["sheet": "paths", "start": "Bill editor", "kind": "event", "direction": "before", "depth": "5"], today: today)
        #expect(query.sheet == .paths(PathQuery(start: "Bill editor", kind: .event, direction: .before, depth: 5)))
        #expect(query.queryString == "date=2026-11-20&sheet=paths&start=Bill%20editor&kind=event&direction=before&depth=5")
        #expect(try PageQuery(["sheet": "paths"], today: today).sheet == .paths(PathQuery()))
        let refused: [([String: String], String)] = [
            (["depth": "0"], "depth"), (["depth": "6"], "depth"), (["depth": "-1"], "depth"), (["depth": "99999999999999999999999"], "depth"),
            (["depth": "three"], "depth"), (["depth": ""], "depth"), (["kind": "page"], "kind"), (["direction": "sideways"], "direction"),
            (["start": String(repeating: "a", count: 10_000)], "start"), (["start": "a\u{0}b"], "start"),
        ]
        for (parameters, name) in refused {
            do throws(PageQueryError) {
                _ = try PageQuery(["sheet": "paths", "start": "Home"].merging(parameters) { $1 }, today: today)
                Issue.record("\(parameters) was read")
            } catch {
                #expect(error.description.hasPrefix(name + " must be"), "\(error)")
            }
        }
        #expect(try PageQuery(["sheet": "paths", "start": String(repeating: "a", count: PathQuery.maximumStartLength)], today: today).sheet != nil)
    }

    /// Browser events and mediator calls out of range are refused and change nothing; any
    /// text within range is a start, shown escaped.
    @Test func hostileEventsAreRefusedOrEscaped() async throws {
        let page = try await page(.paths(PathQuery(start: "Home")))
        let shown = page.viewModel.query.value
        for value in [
            "start=Home&depth=0", "start=Home&depth=6", "start=Home&depth=-3", "start=Home&depth=18446744073709551616", "start=Home&kind=x",
            "start=Home&direction=up", "start=" + String(repeating: "a", count: 10_000), "start=a%00b",
            "start=Home&x=" + String(repeating: "a", count: 40_000),
        ] {
            #expect(throws: BrowserEventError.self, "\(value.prefix(40))") {
                try page.receive(BrowserEvent(section: nil, name: "paths", value: value))
            }
        }
        for value in ["paths:", "paths:" + String(repeating: "a", count: 10_000)] {
            #expect(throws: BrowserEventError.self) { try page.receive(BrowserEvent(section: nil, name: "sheet", value: value)) }
        }
        #expect(page.viewModel.query.value == shown)
        let url = try #require(URL(string: "tally://sheet/paths?start=Home&depth=9"))
        #expect(throws: MediatorError.self) { let _: String = try Mediator.dashboard.call(url, ["page": page]) }

        let text = #"</select><script>alert("x")</script>"#
        try page.receive(BrowserEvent(section: nil, name: "sheet", value: "paths:" + text))
        await page.loadSheetData()
        _ = page.refreshSheet()
        #expect(page.sheetHTML.contains("No session showed this screen in the range."))
        #expect(!page.sheetHTML.contains("<script") && !page.sheetHTML.contains(text))
        #expect(page.sheetHTML.contains(#"<option value="&lt;/select&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" selected>"#))
    }
}

import Componentry
import ComponentryList
import TallyEvent
import Testing

@testable import TallyDashboard

/// What a browser sends reaches the page up the responder chain, from the element's
/// section; a bad or hostile event is refused with a reason and changes nothing.
@MainActor
@Suite(.serialized) struct BrowserEventTests {
    @Test func aSectionsEventBubblesFromTheSectionToThePage() throws {
        let page = DashboardPage(date: "2026-11-20")
        var path: [String] = []
        ResponderChain.tracer = { trace in path = trace.steps.map { String(describing: type(of: $0.responder)) } }
        defer { ResponderChain.tracer = nil }
        let patches = try page.patches(receiving: BrowserEvent(section: "ads", name: "move", value: "0"))
        #expect(path == ["SectionComponent", "DashboardPage"])
        #expect(patches.count == 1)
        #expect(page.viewModel.order.value.identifiers.first == "ads")
    }

    @Test func hidingAndShowingGoThroughThePage() throws {
        let page = DashboardPage(date: "2026-11-20")
        #expect(try page.patches(receiving: BrowserEvent(section: "bills", name: "hide")).count == 1)
        #expect(page.viewModel.order.value.hidden == ["bills"])
        // A hidden section has no element: its "show" starts at the page.
        #expect(try page.patches(receiving: BrowserEvent(section: "bills", name: "show")).count == 1)
        #expect(page.viewModel.order.value.hidden.isEmpty)
    }

    @Test(arguments: [
        (BrowserEvent(section: "ads", name: "explode"), BrowserEventError.unknownEvent("explode")),
        (BrowserEvent(section: "ads", name: "move", value: "abc"), .badValue(BrowserEvent(section: "ads", name: "move", value: "abc"))),
        (
            BrowserEvent(section: "ads", name: "move", value: "99999999999999999999"),
            .badValue(BrowserEvent(section: "ads", name: "move", value: "99999999999999999999"))
        ),
        (BrowserEvent(section: nil, name: "move", value: "1"), .badValue(BrowserEvent(section: nil, name: "move", value: "1"))),
        (BrowserEvent(section: nil, name: "hide"), .badValue(BrowserEvent(section: nil, name: "hide", value: nil))),
    ])
    func aBadEventIsRefusedAndThePageKeepsWorking(event: BrowserEvent, error: BrowserEventError) throws {
        let page = DashboardPage(date: "2026-11-20")
        let before = page.html
        #expect(throws: error) { try page.receive(event) }
        #expect(page.html == before)
        #expect(try page.patches(receiving: BrowserEvent(section: "ads", name: "move", value: "0")).count == 1)
    }

    /// A section the page does not have (a forged id) is refused by name; the page is unchanged.
    @Test func anUnknownSectionIsRefused() throws {
        let page = DashboardPage(date: "2026-11-20")
        let before = page.html
        #expect(throws: BrowserEventError.unknownSection("gone")) { try page.receive(BrowserEvent(section: "gone", name: "hide")) }
        #expect(throws: BrowserEventError.unknownSection("<b>")) { try page.receive(BrowserEvent(section: "<b>", name: "move", value: "0")) }
        #expect(page.html == before)
    }
}

/// The page's own controls: search, reload, dates and sheets, each through the chain.
@MainActor
@Suite struct PageControlTests {
    func sectionIDs(_ html: String) -> [String] {
        html.matches(of: /data-section="([^"]+)"/).map { String($0.1) }
    }

    /// Waits until `condition` holds, for at most 5 seconds.
    func eventually(_ condition: @MainActor () -> Bool) async throws {
        for _ in 0..<500 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
    }

    @Test func searchFiltersSectionsOnceTypingPauses() async throws {
        let page = DashboardPage(date: "2026-11-20")
        var messages = 0
        page.outbox = { message in if !message.patches.isEmpty { messages += 1 } }
        for prefix in ["a", "ad", "ads"] { try page.receive(BrowserEvent(section: nil, name: "search", value: prefix.uppercased())) }
        #expect(sectionIDs(page.html).count == DashboardLayout.default.sections.count, "nothing filters while typing")
        try await eventually { sectionIDs(page.html) == ["ads"] }
        #expect(sectionIDs(page.html) == ["ads"])
        #expect(messages == 1, "three keystrokes, one update")
        try page.receive(BrowserEvent(section: nil, name: "search", value: "  "))
        try await eventually { sectionIDs(page.html).count > 1 }
        #expect(sectionIDs(page.html).count == DashboardLayout.default.sections.count)
    }

    @Test func reloadIsRefusedWhileARefreshRuns() throws {
        let page = DashboardPage(date: "2026-11-20")
        page.viewModel.isRefreshing.value = true
        #expect(throws: BrowserEventError.busy) { try page.receive(BrowserEvent(section: nil, name: "reload")) }
        page.viewModel.isRefreshing.value = false
        try page.receive(BrowserEvent(section: nil, name: "reload"))
    }

    @Test(arguments: PageQuery.Preset.allCases)
    func aPresetSetsTheRangeAndTheAddress(preset: PageQuery.Preset) throws {
        let page = DashboardPage(date: "2026-11-20")
        var urls: [String] = []
        page.outbox = { message in if let url = message.url { urls.append(url) } }
        try page.receive(BrowserEvent(section: nil, name: "range", value: preset.rawValue))
        let range = preset.range(today: page.today)
        #expect(page.viewModel.query.value.from == range.lowerBound)
        #expect(page.viewModel.query.value.date == range.upperBound)
        if page.viewModel.query.value != PageQuery(date: CalendarDay("2026-11-20")!) {
            #expect(urls.last == page.url)
            #expect(urls.last?.contains("date=\(range.upperBound)") == true)
        }
    }

    @Test func sheetsOpenAndCloseThroughTheMediatorByURL() throws {
        let page = DashboardPage(date: "2026-11-20")
        let recording = Mediator.dashboard.recordCalls()
        defer { recording.dispose() }
        var slots: [String] = []
        page.outbox = { message in
            for case .replace("sheet-slot", let html) in message.patches { slots.append(html) }
        }
        try page.receive(BrowserEvent(section: nil, name: "sheet", value: "sections"))
        #expect(slots.last?.contains(#"<ol id="section-manager">"#) == true)
        #expect(recording.calls.contains { $0.target == "sheet" && $0.action == "sections" })
        try page.receive(BrowserEvent(section: nil, name: "close-sheet"))
        #expect(slots.last == #"<div id="sheet-slot"></div>"#)
        #expect(page.url == "/apps/1?date=2026-11-20")
    }
}

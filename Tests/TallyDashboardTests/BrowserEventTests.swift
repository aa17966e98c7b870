import Componentry
import ComponentryList
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
        (BrowserEvent(section: "ads", name: "move", value: "99999999999999999999"), .badValue(BrowserEvent(section: "ads", name: "move", value: "99999999999999999999"))),
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

    /// A section the page does not have (a stale tab, a forged id) is ignored by the page.
    @Test func aStaleSectionChangesNothing() throws {
        let page = DashboardPage(date: "2026-11-20")
        let before = page.html
        #expect(try page.patches(receiving: BrowserEvent(section: "gone", name: "hide")).isEmpty)
        #expect(try page.patches(receiving: BrowserEvent(section: "gone", name: "move", value: "0")).isEmpty)
        #expect(page.html == before)
    }
}

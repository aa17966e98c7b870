import ComponentryList
import Foundation
import Testing

// The README's ComponentryList example, verbatim; ComponentryTests'
// `readmeExamplesAreCompiledByTests` fails when the two drift apart.

struct Report: Sendable {
    var metrics: [Visits]
    var pages: [Visits]
}

/// A stand-in for the dashboard's API: each report counts one more visit.
@MainActor
final class ReportAPI {
    private var calls = 0

    func report(page: Int) async throws -> Report {
        calls += 1
        return Report(
            metrics: [Visits(id: "DAU", count: 1_204 + calls), Visits(id: "MAU", count: 9_310)],
            pages: [Visits(id: "Home", count: 5_120), Visits(id: "Bills <new>", count: 2_046)]
        )
    }
}

@MainActor let api = ReportAPI()
@MainActor var sent: [String] = []

@MainActor
func send(_ json: String) {
    sent.append(json)
}

struct Visits: Identifiable {
    let id: String
    let count: Int
}

final class TopMetrics: ListComponent {  // one row that scrolls sideways
    let id = "metrics"
    let items: [Visits]
    var arrangement: Arrangement { .horizontal }
    var layout: ComponentLayout { ComponentLayout(interitemSpacing: 8, distribution: .fraction(0.4), itemRatio: .height(88)) }
    init(_ items: [Visits]) { self.items = items }
    func cell(for metric: Visits) -> Cell { Cell("metric", ["name": metric.id, "value": "\(metric.count)"]) }
}

final class TopPages: ListComponent {  // a two-column grid
    let id = "pages"
    let items: [Visits]
    var layout: ComponentLayout { ComponentLayout(lineSpacing: 1, distribution: .columns(2)) }
    init(_ items: [Visits]) { self.items = items }
    func cell(for page: Visits) -> Cell { Cell("page", ["name": page.id, "visits": "\(page.count)"]) }
    func didSelect(_ page: Visits) { print("open", page.id) }
}

@MainActor
@Suite("README example")
struct ReadmeExampleTests {
    @Test func moduleWithAGridAndAHorizontalRow() async throws {
        let module = ListModule { page in
            let report = try await api.report(page: page.index)
            return [TopMetrics(report.metrics), TopPages(report.pages)]
        }
        await module.refresh()
        let html = HTMLRenderer().render(module)  // the dashboard's first paint
        module.onUpdate = { update in send(HTMLRenderer.json(HTMLRenderer().patch(update))) }

        #expect(html.contains("id=\"list-c-metrics-items\""))
        #expect(html.contains("grid-auto-flow:column"))
        #expect(html.contains("Bills &lt;new&gt;"))
        #expect(module.layout.frame(at: ItemPath(section: 0, item: 1))?.y == module.layout.frame(at: ItemPath(section: 0, item: 0))?.y)
        await module.refresh()  // DAU went up by one: one cell replaced
        #expect(sent.count == 1)
        #expect(sent.last?.contains("\"op\":\"replace\"") == true)
        #expect(sent.last?.contains("list-c-metrics-i-DAU") == true)
    }
}

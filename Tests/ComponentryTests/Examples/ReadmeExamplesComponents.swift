import Componentry
import Foundation
import Testing

// The README's component and mediator examples, verbatim; `readmeExamplesAreCompiledByTests`
// (ReadmeExamples.swift) fails when the README and this file drift apart.

final class Metrics {
    var day = "2024-05-01"
    var reloaded: [String] = []
}

final class VisitsCard: Component {
    static let identifier = "visits"
    weak var context: (any ComponentContext<Metrics>)?

    init(context: any ComponentContext<Metrics>) { self.context = context }

    func reload() { print("visits on", context?.viewModel.day ?? "?") }
}

final class SignupsCard: Component {
    static let identifier = "signups"
    weak var context: (any ComponentContext<Metrics>)?

    init(context: any ComponentContext<Metrics>) { self.context = context }

    func didLoad() { context?.viewModel.reloaded.append("signups loaded") }
}

final class MetricsPage: ComponentContext {
    let viewModel = Metrics()
    let eventBus = EventBus()
    let manager: ComponentManager<Metrics>

    init(factory: ComponentFactory<Metrics>, layout: ComponentOrder) {
        manager = ComponentManager(factory: factory)
        manager.load(layout, context: self)
    }

    func component<C: Component>(_ type: C.Type) -> C? { manager.component(type) }
    func reload() { manager.reload() }
}

final class BookDetailTarget: MediatorTarget {
    static let name = "BookDetail"
    init(mediator: Mediator) {}

    static func registerActions(in table: inout MediatorActionTable<BookDetailTarget>) {
        table.action("title") { _, parameters in
            "Book \(try parameters.value("bookID", as: Int.self))"
        }
        table.action("open", allowsURLCalls: true) { _, parameters in  // actions are internal unless they opt in
            "opened \(try parameters.value("bookID", as: Int.self))"
        }
    }
}

extension Mediator {  // the typed facade, in a small target callers link instead of the module
    func bookTitle(_ bookID: Int) throws(MediatorError) -> String {
        try call("BookDetail", "title", ["bookID": bookID])
    }
}

@Suite("README examples: components and mediator")
struct ReadmeExamplesComponents {
    @MainActor
    @Test func componentsExample() throws {
        let factory = ComponentFactory<Metrics>()
        try factory.register {  // refuses blank or taken identifiers
            VisitsCard.self
            SignupsCard.self
        }
        let page = MetricsPage(factory: factory, layout: ["visits", "signups", "ads"])
        page.manager.pageDidLoad()  // each component's didLoad(), in layout order
        page.manager.setHidden(true, for: "signups")  // the user's choice: persist page.manager.order
        #expect(page.viewModel.reloaded == ["signups loaded"])
        #expect(page.manager.unknownIdentifiers == ["ads"])
        #expect(page.manager.identifiers == ["visits"])
        #expect(page.manager.order == ComponentOrder(["visits", "signups", "ads"], hidden: ["signups"]))
    }

    @Test func mediatorExample() throws {
        let mediator = Mediator()
        try mediator.register(BookDetailTarget.self)
        let title = try mediator.bookTitle(42)  // "Book 42"
        let opened: String = try mediator.call(URL(string: "tally://BookDetail/open?bookID=42")!)
        mediator.fallback = { call, error in "\(call.target) is not available" }  // e.g. a module not linked
        #expect(title == "Book 42")
        #expect(opened == "opened 42")
        #expect(try mediator.call("Review", "count") == "Review is not available")
    }
}

import Componentry
import Foundation
import Testing

// The README's examples, verbatim. `readmeExamplesAreCompiledByTests` fails when the
// README and the example files drift apart.

struct BillCreated: BusEvent {
    let amount: Double
}

final class BillList: LifetimeOwner {
    private(set) var total = 0.0

    init(bus: EventBus) {
        subscribe(to: BillCreated.self, on: bus)  // ends when this list is deallocated
            .priority(10)
            .onMainActor()
            .handle { list, bill in list.refresh(bill) }
    }

    func refresh(_ bill: BillCreated) { total += bill.amount }
}

final class DateLabel: LifetimeOwner {
    private(set) var text = ""

    init(model: DateModel) {
        observe(model.selectedDate).initial().didChange { label, date, _ in label.text = "\(date)" }
    }
}

final class DateModel {
    private let date = Observable(Date(timeIntervalSince1970: 0))
    var selectedDate: ReadOnlyObservable<Date> { date.readOnly }

    func select(_ day: Date) { date.value = day }
}

extension ResponderEvent<Date> {
    static var dateSelected: Self { Self("dateSelected") }
}

final class DateCell: Responder {
    var parent: (any Responder)?
    var nextInChain: (any Responder)? { parent }
}

final class DashboardController: Responder, ResponderEventHandling {
    var nextInChain: (any Responder)? { nil }
    var selected: Date?

    static func registerHandlers(in table: inout ResponderHandlerTable<DashboardController>) {
        table.on(.dateSelected) { controller, date in controller.selected = date }
    }
}

@Suite("README examples")
struct ReadmeExamples {
    @Test func eventBusExample() {
        let bus = EventBus()
        let subscription = bus.on(BillCreated.self).handle { bill in
            print("new bill:", bill.amount)
        }
        bus.post(BillCreated(amount: 12.5))  // the handler has run when post returns
        subscription.dispose()
        #expect(bus.subscriberCount(BillCreated.self) == 0)
    }

    @Test func ownerExample() {
        let bus = EventBus()
        var list: BillList? = BillList(bus: bus)
        weak let weakList = list
        #expect(bus.subscriberCount(BillCreated.self) == 1)
        list = nil
        #expect(weakList == nil)  // the subscription does not keep its owner alive
        #expect(bus.subscriberCount(BillCreated.self) == 0)
    }

    @Test func ownedObserverExample() {
        let model = DateModel()
        var label: DateLabel? = DateLabel(model: model)
        weak let weakLabel = label
        #expect(label?.text == "\(Date(timeIntervalSince1970: 0))")
        model.select(Date(timeIntervalSince1970: 86_400))
        #expect(label?.text == "\(Date(timeIntervalSince1970: 86_400))")
        label = nil
        #expect(weakLabel == nil)  // the observation does not keep its owner alive
    }

    @Test func observableExample() {
        let model = DateModel()
        let seen = Recorder<Date>()
        let observation = model.selectedDate.observe().initial().didChange { new, old in
            print("selected", new, "was", old)
            seen.append(new)
        }
        model.select(Date())  // the observer has run when select returns
        observation.dispose()
        #expect(seen.count == 2)
        #expect(seen.values.last == model.selectedDate.value)
    }

    @Test func debounceExample() {
        let query = Observable("", timing: .debounce(.milliseconds(300)))
        let seen = Recorder<String>()
        query.observe().didChange { new, _ in seen.append(new) }
        query.value = "zao"
        query.value = "早饭"  // 300 ms later, observers hear once, of "早饭"
        // Held until then (the timing tests wait for commits, with short intervals).
        #expect(query.value == "")
        #expect(seen.values.isEmpty)
    }

    @MainActor
    @Test func responderChainExample() {
        let controller = DashboardController()
        let cell = DateCell()
        cell.parent = controller
        cell.raise(.dateSelected, Date())  // handled by the controller, on the main actor
        #expect(controller.selected != nil)
    }

    /// Every line of every Swift block in README.md appears, in order, in one of the
    /// test files named `ReadmeExample*.swift`, which compile and run that code.
    @Test func readmeExamplesAreCompiledByTests() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
        // The client package's tests and the server package's (`Server/Tests`).
        let examples = try ["Tests", "Server/Tests"].map { repository.appendingPathComponent($0) }.flatMap { tests in
            try FileManager.default.subpathsOfDirectory(atPath: tests.path)
                .filter { ($0 as NSString).lastPathComponent.hasPrefix("ReadmeExample") && $0.hasSuffix(".swift") }
                .map { try String(contentsOf: tests.appendingPathComponent($0), encoding: .utf8).split(separator: "\n").map(Self.trimmed) }
        }
        let blocks = readme.components(separatedBy: "```swift\n").dropFirst()
            .map { $0.components(separatedBy: "```").first ?? "" }
        #expect(examples.count >= 2)
        #expect(!blocks.isEmpty)
        for block in blocks {
            let lines = block.split(separator: "\n").map(Self.trimmed)
            #expect(examples.contains { Self.contains(lines, inOrderIn: $0) }, "README block not compiled by a test:\n\(block)")
        }
    }

    private static func trimmed(_ line: Substring) -> String {
        line.trimmingCharacters(in: .whitespaces)
    }

    private static func contains(_ lines: [String], inOrderIn source: [String]) -> Bool {
        var cursor = source.startIndex
        for line in lines {
            guard let found = source[cursor...].firstIndex(of: line) else { return false }
            cursor = found + 1
        }
        return true
    }
}

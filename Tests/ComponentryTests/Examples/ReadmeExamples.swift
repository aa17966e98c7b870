import Componentry
import Foundation
import Testing

// The README's examples, verbatim. `readmeExamplesAreThisCode` fails when the README
// and this file drift apart.

struct BillCreated: BusEvent {
    let amount: Double
}

final class BillList: LifetimeOwner {
    init(bus: EventBus) {
        subscribe(to: BillCreated.self, on: bus)  // ends when this list is deallocated
            .priority(10)
            .onMainActor()
            .handle { bill in print("refresh for", bill.amount) }
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
        #expect(bus.subscriberCount(BillCreated.self) == 1)
        withExtendedLifetime(list) {}
        list = nil
        bus.post(BillCreated(amount: 1))  // purges the subscription of the dead owner
        #expect(bus.subscriberCount(BillCreated.self) == 0)
    }

    /// Every line of every Swift block in README.md appears, in order, in this file.
    @Test func readmeExamplesAreThisCode() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: here, encoding: .utf8)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let blocks = readme.components(separatedBy: "```swift\n").dropFirst()
            .map { $0.components(separatedBy: "```").first ?? "" }
        #expect(!blocks.isEmpty)
        for block in blocks {
            var cursor = source.startIndex
            for line in block.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                let found = source[cursor...].firstIndex(of: line)
                #expect(found != nil, "README line not in the examples: \(line)")
                cursor = (found ?? cursor) + 1
            }
        }
    }
}

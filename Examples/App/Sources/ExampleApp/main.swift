import Componentry
import Foundation
import TallyTracker

// A bookkeeping app's core: the bill book posts what happens on the bus, and analytics is one
// more subscriber, so no screen or model calls the tracker.
//
//     swift run ExampleApp [ENDPOINT INGEST_KEY]
//
// With an endpoint and an app's ingest key (`tally app create`), the events are uploaded;
// without, they wait in the on-disk queue, as on a phone without a network.

struct BillCreated: BusEvent {
    let amount: Double
    let category: String
}

/// Tracks the app's bus events; the rest of the app knows nothing of it.
final class Analytics: LifetimeOwner {
    let tracker: Tracker

    init(tracker: Tracker, bus: EventBus) {
        self.tracker = tracker
        subscribe(to: BillCreated.self, on: bus).handle { analytics, bill in
            analytics.tracker.track("bill_created", ["amount": .double(bill.amount), "category": .string(bill.category)])
        }
    }
}

let arguments = CommandLine.arguments.dropFirst()
let endpoint = arguments.first.flatMap(URL.init(string:)) ?? URL(string: "http://127.0.0.1:9")!
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("example-app-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: folder) }

let bus = EventBus()
let tracker = try Tracker(configuration: .init(endpoint: endpoint, appKey: arguments.dropFirst().first ?? "ik_example", storageDirectory: folder))
let analytics = Analytics(tracker: tracker, bus: bus)
tracker.identify("user-42")
bus.post(BillCreated(amount: 12.5, category: "lunch"))
bus.post(BillCreated(amount: 30, category: "books"))

let report = await tracker.flush()
print("sent \(report.sent), pending \(report.pending)")

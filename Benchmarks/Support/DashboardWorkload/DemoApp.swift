import Foundation
import SeededRandom
import TallyEvent
import TallyStore

/// An app like `tally serve --demo`'s bookkeeping app, written straight into a store: the
/// events and properties the default dashboard reads, for 240 users over 60 days ending
/// today (about 80,000 events).
public enum DemoApp {
    /// A store in a new temporary file, holding the demo app.
    public static func make(users: Int = 240, days: Int = 60) async throws -> (EventStore, NewApp) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tally-demo-bench-\(UUID().uuidString).sqlite").path
        let store = try EventStore(path: path)
        let created = try await store.apps.create(name: "Demo Bookkeeping", timeZone: "UTC", acceptedEventAge: Double(days + 2) * 86_400)
        let app = created.app
        var random = SplitMix64(seed: 2026)
        let today = Date().timeIntervalSince1970 - Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400)
        var batch: [Event] = []
        for user in 0..<users {
            let joined = Int.random(in: 0..<days, using: &random)
            let version = ["3.0.0", "3.1.0", "3.2.0", "3.3.0"][Int.random(in: 0..<4, using: &random)]
            for day in joined..<days where Double.random(in: 0..<1, using: &random) < 0.45 {
                var time = today - Double(days - 1 - day) * 86_400 + Double.random(in: 28_800..<72_000, using: &random)
                func add(_ name: String, _ properties: [String: PropertyValue] = [:]) {
                    let at = Date(timeIntervalSince1970: time)
                    batch.append(
                        Event(
                            id: UUID(), name: name, timestamp: at, deviceTimestamp: at, userID: "user-\(user)", sessionID: nil,
                            appVersion: version, platform: "ios", properties: properties))
                    time += 20
                }
                add("screen_view", ["screen": .string("Home")])
                for _ in 0..<Int.random(in: 0...3, using: &random) {
                    add("screen_view", ["screen": .string("BillEditor")])
                    add(
                        "bill_created",
                        [
                            "note": .string(Bool.random(using: &random) ? "" : "lunch"), "labels": .string(Bool.random(using: &random) ? "" : "food"),
                            "duration_s": .int(Int.random(in: 4...90, using: &random)),
                        ])
                }
                for _ in 0..<Int.random(in: 0...2, using: &random) {
                    add("ad_shown", ["placement": .string(Bool.random(using: &random) ? "home_banner" : "interstitial")])
                }
                if Int.random(in: 0..<30, using: &random) == 0 { add("login", ["method": .string("phone")]) }
                if Int.random(in: 0..<50, using: &random) == 0 {
                    add("rating_submitted", ["stars": .int(Int.random(in: 3...5, using: &random))])
                }
                if batch.count >= 2_000 {
                    try await store.events.insert(batch, app: app.id)
                    batch.removeAll(keepingCapacity: true)
                }
            }
        }
        try await store.events.insert(batch, app: app.id)
        return (store, created)
    }

    /// Today, UTC, as `YYYY-MM-DD`.
    public static var today: String {
        Date().formatted(.iso8601.year().month().day())
    }
}

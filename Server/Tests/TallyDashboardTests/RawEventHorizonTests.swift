import Foundation
import TallyEvent
import TallyStore
import Testing

@testable import TallyDashboard

/// The values a page reads from raw events (an average, an empty share, a breakdown) say when
/// the app no longer keeps the day's raw events, whole or in part; the others, read from
/// rollups, stay as they were.
@MainActor @Suite struct RawEventHorizonTests {
    static let layout = try! DashboardLayout(
        yaml: """
            sections:
              - id: bills
                title: Bills
                metrics:
                  - {key: bills, label: Bills, count: bill_created}
                  - {key: payers, label: Users, distinct_users: bill_created}
                  - {key: amount, label: Amount, average: {event: bill_created, property: amount}}
                  - {key: notes, label: No note, empty_share: {event: bill_created, property: note}}
                  - {key: kinds, label: Kinds, breakdown: {event: bill_created, property: kind}}
            """)

    /// A bill at noon UTC on each of 15 to 19 Nov 2026 in a Shanghai app that keeps two days of
    /// raw events, pruned on 20 Nov: its raw events are kept from 18 Nov 00:00 UTC, 08:00 in
    /// Shanghai.
    @Test func aPrunedDaySaysItsRawEventsAreGone() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tally-test-horizon-\(UUID()).sqlite").path
        let store = try EventStore(path: path)
        let app = try await store.apps.create(name: "Bills", timeZone: "Asia/Shanghai", acceptedEventAge: 86_400).app
        let bills = try (15...19).map { day in
            Event(
                id: UUID(), name: "bill_created", timestamp: try Date("2026-11-\(day)T12:00:00Z", strategy: .iso8601), userID: "u\(day)",
                properties: ["amount": .double(Double(day)), "note": .string(""), "kind": .string("food")])
        }
        try await store.events.insert(bills, app: app.id)
        _ = try await store.apps.update(app.id, rawRetention: .days(2))
        _ = try await store.dataRetention.prune(now: try Date("2026-11-20T12:00:00Z", strategy: .iso8601))
        #expect(try await store.apps.app(id: app.id)?.rawEventsKeptSince == (try Date("2026-11-18T00:00:00Z", strategy: .iso8601)))

        func page(_ date: String) async throws -> (values: [String: MetricValue], tiles: [Tile]) {
            let report = try await DayReport.load(from: store, layout: Self.layout, in: ReadScope(app: app.id, day: CalendarDay(date)!))
            return (report.values, SectionComponent.tiles(of: Self.layout.sections[0], in: report))
        }
        // Kept whole: nothing is said.
        let kept = try await page("2026-11-19")
        #expect(kept.values["amount"] == MetricValue("19.0", detail: "max 19"))
        #expect(kept.values["notes"] == MetricValue("100%", detail: "1 of 1"))
        #expect(kept.values["kinds"] == MetricValue("food", detail: "food: 1"))
        // 18 Nov in Shanghai began at 16:00 UTC the day before: kept from 08:00.
        let part = try await page("2026-11-18")
        let since = "from 08:00:00 on: earlier raw events are no longer kept"
        #expect(part.values["amount"] == MetricValue("18.0", detail: "max 18; \(since)"))
        #expect(part.values["notes"] == MetricValue("100%", detail: "1 of 1; \(since)"))
        #expect(part.values["kinds"] == MetricValue("food", detail: "food: 1; \(since)"))
        // 16 Nov is gone: the raw-event values say so; the counts and users, from rollups, stay.
        let gone = try await page("2026-11-16")
        let none = MetricValue("—", detail: "raw events of this day are no longer kept")
        #expect([gone.values["amount"], gone.values["notes"], gone.values["kinds"]] == [none, none, none])
        #expect(gone.values["bills"] == MetricValue("1") && gone.values["payers"] == MetricValue("1"))
        #expect(gone.tiles.map(\.label).contains("No values in the day's kept raw events"))
        #expect(!kept.tiles.map(\.label).contains("No values in the day's kept raw events"))
    }
}

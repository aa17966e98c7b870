import Foundation
import TallyEvent
import TallyServerTesting
import TallyStore
import TallyStoreTesting
import Testing

/// What the API says once an app's raw events were pruned: a timeline and a property
/// breakdown name the first instant kept, as ISO 8601; a breakdown of a day fully kept does not.
@Suite("raw event retention contract")
struct RawRetentionContractTests {
    @Test(arguments: TestDatabase.all) func readsOfPrunedRawEventsNameTheFirstInstantKept(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let now = Date()
            let old = now.addingTimeInterval(-5 * 86_400)
            // Stored directly: ingest refuses events older than the app's accepted age.
            try await server.store.events.insert(
                [old, now].map {
                    Event(
                        id: UUID(), name: "upgrade", timestamp: $0, userID: "ann", appVersion: "1.0", platform: "iOS",
                        properties: ["plan": .string("pro")])
                }, app: app.app.id)
            _ = try await server.store.apps.update(app.app.id, acceptedEventAge: 86_400, rawRetention: .days(2))
            _ = try await server.store.dataRetention.prune(now: now)
            let keptSince = App.rawEventsHorizon(days: 2, at: now).formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))

            let timeline = try await server.metrics("/v1/users/ann/events", token: app.readToken)
            #expect(timeline.status == 200)
            #expect(timeline.json["raw_events_kept_since"] as? String == keptSince)
            #expect((timeline.json["events"] as? [Any])?.count == 1)

            let before = try await server.metrics("/v1/metrics/breakdown?date=\(utcDay(old))&event=upgrade&property=plan", token: app.readToken)
            #expect(before.status == 200)
            #expect(before.json["raw_events_kept_since"] as? String == keptSince)
            #expect((before.json["top"] as? [Any])?.isEmpty == true)
            let today = try await server.metrics("/v1/metrics/breakdown?date=\(utcDay(now))&event=upgrade&property=plan", token: app.readToken)
            #expect(today.json["raw_events_kept_since"] == nil)
            // The day's metrics still count the pruned event.
            let day = try await server.metrics("/v1/metrics?date=\(utcDay(old))", token: app.readToken)
            #expect(day.json["dau"] as? Int == 1)
        }
    }
}

import Foundation
import GRDB
import TallyEvent
import TallyStoreTesting
import Testing

@testable import TallyStore

@Suite struct IngestTests {
    @Test func duplicateIDsAreStoredOnceAndCounted() async throws {
        let store = try makeStore()
        let app = try await store.apps.create(name: "Demo").app.id
        let a = event(at: instant("2026-03-01T10:00:00Z"))
        let b = event(at: instant("2026-03-01T10:01:00Z"))
        let c = event(at: instant("2026-03-01T10:02:00Z"))

        #expect(try await store.events.insert([a, b, a, a], app: app) == InsertResult(accepted: 2, duplicates: 2))
        // A retry carrying different content under a stored id keeps the first copy.
        var changed = b
        changed.name = "changed"
        #expect(try await store.events.insert([changed, c, a], app: app) == InsertResult(accepted: 1, duplicates: 2))

        let metrics = try await store.metrics.day(ReadScope(app: app, day: CalendarDay("2026-03-01")!))
        #expect(metrics.events == ["open": 3])
        #expect(metrics.perUser["open"] == PerUserStats(average: 3, maximum: 3))
        let rows = try await store.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM event") }
        #expect(rows == 3)
    }

    @Test(arguments: TestDatabase.all) func sameIDInAnotherAppIsNotADuplicate(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let first = try await store.apps.create(name: "First").app.id
        let second = try await store.apps.create(name: "Second").app.id
        let shared = event(at: instant("2026-03-01T10:00:00Z"))
        #expect(try await store.events.insert([shared], app: first) == InsertResult(accepted: 1, duplicates: 0))
        #expect(try await store.events.insert([shared], app: second) == InsertResult(accepted: 1, duplicates: 0))
    }

    @Test func unknownAppIsRejectedAndNothingIsStored() async throws {
        let store = try makeStore()
        await #expect(throws: TallyStoreError.unknownApp(AppID(rawValue: 7))) {
            try await store.events.insert([event(at: Date())], app: AppID(rawValue: 7))
        }
        let rows = try await store.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM event") }
        #expect(rows == 0)
    }

    @Test(arguments: TestDatabase.all) func exportStreamsStoredEventsInTimeOrder(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Demo").app.id
        let start = instant("2026-03-01T00:00:00Z")
        // More than a page, out of order, with equal timestamps, and one event outside the range.
        var events: [Event] = (0..<2_500).map { (i: Int) -> Event in
            let properties: [String: PropertyValue] = [
                "screen": .string("home \"\(i)\"\n"), "n": .double(Double(i) / 4), "ok": .bool(i % 2 == 0), "x": .null,
            ]
            let timestamp = start.addingTimeInterval(Double(i / 2) * 0.5)
            return event(name: i % 3 == 0 ? "screen_view" : "tap", at: timestamp, user: "u\(i % 7)", properties: properties)
        }
        events.reverse()
        events.append(event(at: instant("2026-03-02T00:00:00Z")))
        for batch in stride(from: 0, to: events.count, by: 100) {
            try await store.events.insert(Array(events[batch..<min(batch + 100, events.count)]), app: app)
        }

        var exported: [Event] = []
        for try await event in store.events.export(app: app, from: start, to: instant("2026-03-02T00:00:00Z")) {
            exported.append(event)
        }
        #expect(exported.count == 2_500)
        #expect(Set(exported) == Set(events.dropLast()))
        #expect(zip(exported, exported.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp })

        let line = try JSONEncoder().encode(exported[0])
        let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "id", "name", "timestamp", "device_timestamp", "user_id", "session_id", "app_version", "platform", "properties",
            ])
    }

    /// Events of any month and century are stored, once: on PostgreSQL each in its month's
    /// partition, or in the default one before 1970, with duplicates found across them.
    @Test(arguments: TestDatabase.all) func eventsOfAnyMonthAndCenturyAreStoredOnce(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Demo").app.id
        let instants = [
            "1926-05-01T00:00:00Z", "1969-12-31T23:59:59.999Z", "1970-01-01T00:00:00Z", "2026-01-31T23:59:59.999Z",
            "2026-02-01T00:00:00Z", "2026-12-31T12:00:00Z",
        ].map(instant)
        let events = instants.map { event(at: $0) }
        #expect(try await store.events.insert(events, app: app).accepted == 6)
        #expect(try await store.events.insert(events.reversed(), app: app).duplicates == 6)
        var exported: [Double] = []
        for try await stored in store.events.export(app: app, from: .distantPast, to: .distantFuture) {
            exported.append((stored.timestamp.timeIntervalSince1970 * 1000).rounded())
        }
        #expect(exported == instants.map { ($0.timeIntervalSince1970 * 1000).rounded() })
        #expect(try await store.metrics.day(ReadScope(app: app, day: CalendarDay("1969-12-31")!)).events == ["open": 1])
        #expect(try await store.metrics.day(ReadScope(app: app, day: CalendarDay("2026-01-31")!)).dau == 1)
    }
}

import Foundation
import TallyEvent
import TallyStoreTesting
import Testing

@testable import TallyStore

/// Events from debug builds are kept apart from production: every metric answers for the
/// app's production events, or with its debug id for its debug builds'.
@Suite struct DebugEventsTests {
    @Test(arguments: TestDatabase.all) func debugEventsAreKeptApartFromProduction(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Demo").app.id
        let noon = instant("2026-03-01T12:00:00Z")
        var debug = [event(name: "bill_created", at: noon, user: "dev"), event(name: "open", at: noon, user: "dev")]
        for index in debug.indices { debug[index].isDebug = true }
        let production = [event(name: "open", at: noon, user: "a"), event(name: "open", at: noon, user: "b")]
        let result = try await store.events.insert([production[0], debug[0], production[1], debug[1]], app: app)
        #expect((result.accepted, result.duplicates) == (4, 0))

        let day = try await store.metrics.day(ReadScope(app: app, day: CalendarDay("2026-03-01")!))
        #expect((day.dau, day.events) == (2, ["open": 2]))
        let debugDay = try await store.metrics.day(ReadScope(app: app.debug, day: CalendarDay("2026-03-01")!))
        #expect((debugDay.dau, debugDay.events) == (1, ["bill_created": 1, "open": 1]))

        #expect(try await Set(store.events.latest(app: app.debug)) == Set(debug))
        #expect(try await Set(store.events.latest(app: app)) == Set(production))
        // Sent again, both kinds are duplicates of their own set only.
        let again = try await store.events.insert(debug + production, app: app)
        #expect((again.accepted, again.duplicates) == (0, 4))
    }

    @Test(arguments: TestDatabase.all) func aDebugIdNamesNoAppOfItsOwn(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Demo", timeZone: "Asia/Shanghai").app.id
        #expect(try await store.apps.app(id: app.debug) == nil)
        #expect(try await store.apps.all().map(\.id) == [app])
        #expect(app.debug.production == app && app.debug.isDebug && !app.isDebug)
        // Its metrics take the app's settings: its time zone.
        #expect(try await store.metrics.day(ReadScope(app: app.debug, day: CalendarDay("2026-03-01")!)).timeZone == "Asia/Shanghai")
    }
}

import Foundation
import TallyEvent
import TallyStoreTesting
import Testing

@testable import TallyStore

@Suite struct DayBoundaryTests {
    @Test(arguments: TestDatabase.all) func shanghaiDayStartsAtSixteenHundredUTC(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Demo").app.id
        try await store.events.insert([event(at: instant("2026-03-01T17:30:00Z"))], app: app)

        #expect(try await store.metrics.day(ReadScope(app: app, day: CalendarDay("2026-03-01")!)).dau == 1)
        #expect(try await store.metrics.day(ReadScope(app: app, day: CalendarDay("2026-03-02")!)).dau == 0)
        #expect(
            try await store.metrics.day(ReadScope(app: app, day: CalendarDay("2026-03-01")!, timeZone: TimeZone(identifier: "Asia/Shanghai"))).dau
                == 0)
        let shanghai = try await store.metrics.day(
            ReadScope(app: app, day: CalendarDay("2026-03-02")!, timeZone: TimeZone(identifier: "Asia/Shanghai")))
        #expect(shanghai.dau == 1)
        #expect(shanghai.newUsers == 1)
        #expect(shanghai.timeZone == "Asia/Shanghai")
    }

    @Test(arguments: TestDatabase.all) func appTimeZoneIsTheDefault(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Demo", timeZone: "Asia/Shanghai").app.id
        try await store.events.insert([event(at: instant("2026-03-01T17:30:00Z"))], app: app)
        #expect(try await store.metrics.day(ReadScope(app: app, day: CalendarDay("2026-03-02")!)).dau == 1)
        #expect(try await store.metrics.day(ReadScope(app: app, day: CalendarDay("2026-03-02")!, timeZone: TimeZone(identifier: "UTC"))).dau == 0)
    }

    @Test func dstDaysLastTwentyThreeAndTwentyFiveHours() throws {
        let newYork = try LocalCalendar(identifier: "America/New_York")
        for (date, hours) in [("2026-03-08", 23), ("2026-11-01", 25), ("2026-06-01", 24)] {
            let day = try CalendarDay(validating: date)
            #expect(try newYork.buckets(of: day...day).count == hours * 4)
        }
        let kathmandu = try LocalCalendar(identifier: "Asia/Kathmandu")
        let day = try CalendarDay(validating: "2026-03-02")
        // Midnight at +05:45 is 18:15 UTC the day before.
        #expect(try kathmandu.bucket(startOf: day) * Bucket.milliseconds == instant("2026-03-01T18:15:00Z").unixMilliseconds)
    }
}

import Foundation
import TallyEvent
import TallyStoreTesting
import Testing

@testable import TallyStore

@Suite struct ErrorTests {
    /// Days and zones are typed before they reach the store (the routes' and the page's
    /// parsers refuse bad text); what the store still refuses is a range too long, an app it
    /// does not have, and a zone whose day does not start on the quarter-hour grid.
    @Test(arguments: TestDatabase.all) func longRangesUnknownAppsAndOffGridDaysThrow(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Demo").app.id
        await #expect(throws: TallyStoreError.invalidRange(from: "2025-01-01", to: "2026-01-02")) {
            try await store.metrics.range(ReadScope(app: app, days: CalendarDay("2025-01-01")!...CalendarDay("2026-01-02")!))
        }
        await #expect(throws: TallyStoreError.unknownApp(AppID(rawValue: 5))) {
            try await store.metrics.day(ReadScope(app: AppID(rawValue: 5), day: CalendarDay("2026-03-01")!))
        }
        // Before 1901 Kathmandu kept local mean time (+05:41:16): not on the 15-minute grid.
        await #expect(throws: TallyStoreError.unsupportedDayBoundary(date: "1890-01-01", timeZone: "Asia/Kathmandu")) {
            try await store.metrics.day(ReadScope(app: app, day: CalendarDay("1890-01-01")!, timeZone: TimeZone(identifier: "Asia/Kathmandu")))
        }
        #expect(TallyStoreError.invalidDate("x").description == "Invalid date \"x\": expected a calendar day as YYYY-MM-DD.")
    }

    @Test(arguments: TestDatabase.all) func fullYearRangeIsAccepted(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Demo").app.id
        let range = try await store.metrics.range(ReadScope(app: app, days: CalendarDay("2025-01-02")!...CalendarDay("2026-01-02")!))
        #expect(range.dates.count == ReadScope.maximumDays)
        #expect(range.dau.allSatisfy { $0 == 0 })
    }
}

import TallyStoreTesting
import Testing

@testable import TallyStore

@Suite struct ErrorTests {
    @Test(
        arguments: TestDatabase.all,
        [
            "", "2026-3-01", "2026-02-30", "2025-02-29", "2026-13-01", "2026-00-10", "2026-01-32", "2026/01/01",
            "2026-01-01T00:00", "２０２６-01-01", "-026-01-01", "abcd-ef-gh",
        ])
    func invalidDatesThrow(database: TestDatabase, text: String) async throws {
        let store = try await database.makeStore()
        let app = try await store.createApp(name: "Demo").app.id
        await #expect(throws: TallyStoreError.invalidDate(text)) { try await store.metrics(app: app, date: text) }
        await #expect(throws: TallyStoreError.invalidDate(text)) {
            try await store.metricsRange(app: app, from: "2026-01-01", to: text)
        }
    }

    @Test(arguments: TestDatabase.all) func invalidTimeZonesRangesAndAppsThrow(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.createApp(name: "Demo").app.id
        await #expect(throws: TallyStoreError.invalidTimeZone("Mars/Olympus")) {
            try await store.metrics(app: app, date: "2026-03-01", timeZone: "Mars/Olympus")
        }
        await #expect(throws: TallyStoreError.invalidRange(from: "2026-03-02", to: "2026-03-01")) {
            try await store.metricsRange(app: app, from: "2026-03-02", to: "2026-03-01")
        }
        await #expect(throws: TallyStoreError.invalidRange(from: "2025-01-01", to: "2026-01-02")) {
            try await store.metricsRange(app: app, from: "2025-01-01", to: "2026-01-02")
        }
        await #expect(throws: TallyStoreError.unknownApp(AppID(rawValue: 5))) {
            try await store.metrics(app: AppID(rawValue: 5), date: "2026-03-01")
        }
        // Before 1901 Kathmandu kept local mean time (+05:41:16): not on the 15-minute grid.
        await #expect(throws: TallyStoreError.unsupportedDayBoundary(date: "1890-01-01", timeZone: "Asia/Kathmandu")) {
            try await store.metrics(app: app, date: "1890-01-01", timeZone: "Asia/Kathmandu")
        }
        #expect(TallyStoreError.invalidDate("x").description == "Invalid date \"x\": expected a calendar day as YYYY-MM-DD.")
    }

    @Test(arguments: TestDatabase.all) func fullYearRangeIsAccepted(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.createApp(name: "Demo").app.id
        let range = try await store.metricsRange(app: app, from: "2025-01-02", to: "2026-01-02")
        #expect(range.dates.count == EventStore.maximumRangeDays)
        #expect(range.dau.allSatisfy { $0 == 0 })
    }
}

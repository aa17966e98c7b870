import Foundation
import TallyEvent
import TallyStoreTesting
import Testing

@testable import TallyStore

@Suite struct DataHealthTests {
    /// Kathmandu (+05:45) days start at 18:15 UTC: counts on either side of that instant go
    /// to two different local days, and a UTC query splits them differently.
    @Test(arguments: TestDatabase.all) func countsSumPerLocalDay(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Demo", timeZone: "Asia/Kathmandu").app.id
        let other = try await store.apps.create(name: "Other").app.id
        let boundary = instant("2026-03-01T18:15:00Z")  // 2026-03-02 00:00 in Kathmandu
        try await store.events.recordIngest(
            app: app, at: boundary.addingTimeInterval(-0.001), accepted: 5, duplicates: 1,
            rejectedByReason: ["invalid_name": 2], droppedByReason: ["capped-bytes": 7])
        try await store.events.recordIngest(
            app: app, at: boundary, accepted: 3, duplicates: 0, rejectedByReason: ["invalid_name": 1, "too_old": 4])
        try await store.events.recordIngest(app: app, at: boundary.addingTimeInterval(3600), accepted: 1, duplicates: 2)
        try await store.events.recordIngest(app: other, at: boundary, accepted: 100, duplicates: 100)

        let first = try await store.metrics.dataHealth(ReadScope(app: app, day: CalendarDay("2026-03-01")!))
        #expect(
            first
                == DataHealth(
                    from: "2026-03-01", to: "2026-03-01", timeZone: "Asia/Kathmandu", accepted: 5, duplicates: 1,
                    rejected: ["invalid_name": 2], dropped: ["capped-bytes": 7]))
        let second = try await store.metrics.dataHealth(ReadScope(app: app, day: CalendarDay("2026-03-02")!))
        #expect(
            second
                == DataHealth(
                    from: "2026-03-02", to: "2026-03-02", timeZone: "Asia/Kathmandu", accepted: 4, duplicates: 2,
                    rejected: ["invalid_name": 1, "too_old": 4], dropped: [:]))
        let utc = try await store.metrics.dataHealth(ReadScope(app: app, day: CalendarDay("2026-03-01")!, timeZone: TimeZone(identifier: "UTC")))
        #expect((utc.accepted, utc.duplicates, utc.rejected) == (9, 3, ["invalid_name": 3, "too_old": 4]))
    }

    @Test(arguments: TestDatabase.all) func invalidCountsThrowAndRecordNothing(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Demo").app.id
        let now = instant("2026-03-01T12:00:00Z")
        await #expect(throws: TallyStoreError.invalidHealthCount(reason: "", count: -1)) {
            try await store.events.recordIngest(app: app, at: now, accepted: -1, duplicates: 0)
        }
        await #expect(throws: TallyStoreError.invalidHealthCount(reason: "x", count: EventLog.maximumHealthCount + 1)) {
            try await store.events.recordIngest(
                app: app, at: now, accepted: 1, duplicates: 0, droppedByReason: ["x": EventLog.maximumHealthCount + 1])
        }
        let long = String(repeating: "r", count: EventLog.maximumHealthReasonBytes + 1)
        await #expect(throws: TallyStoreError.invalidHealthCount(reason: long, count: 1)) {
            try await store.events.recordIngest(app: app, at: now, accepted: 1, duplicates: 0, rejectedByReason: [long: 1])
        }
        await #expect(throws: TallyStoreError.invalidHealthCount(reason: "", count: 1)) {
            try await store.events.recordIngest(app: app, at: now, accepted: 1, duplicates: 0, rejectedByReason: ["": 1])
        }
        let health = try await store.metrics.dataHealth(ReadScope(app: app, day: CalendarDay("2026-03-01")!))
        #expect((health.accepted, health.rejected, health.dropped) == (0, [:], [:]))
        await #expect(throws: TallyStoreError.unknownApp(AppID(rawValue: 9))) {
            try await store.metrics.dataHealth(ReadScope(app: AppID(rawValue: 9), day: CalendarDay("2026-03-01")!))
        }
    }

    /// Counts recorded from many tasks while batches are inserted all reach the table, once,
    /// and the rows stay one per app, bucket, outcome and reason.
    @Test func concurrentRecordsAreExactAndRowsBounded() async throws {
        let store = try makeStore()
        let app = try await store.apps.create(name: "Demo").app.id
        let start = instant("2026-03-01T00:00:00Z")
        let tasks = 8
        let rounds = 250
        try await withThrowingTaskGroup { group in
            for task in 0..<tasks {
                group.addTask {
                    for round in 0..<rounds {
                        let at = start.addingTimeInterval(Double(round % 96) * 900)
                        if round % 25 == 0 { try await store.events.insert([event(at: at, user: "u\(task)")], app: app) }
                        try await store.events.recordIngest(
                            app: app, at: at, accepted: 1, duplicates: round % 2,
                            rejectedByReason: ["invalid_id": 1, "too_old": round % 3], droppedByReason: ["too-old": 2])
                    }
                }
            }
            try await group.waitForAll()
        }
        let health = try await store.metrics.dataHealth(ReadScope(app: app, day: CalendarDay("2026-03-01")!, timeZone: TimeZone(identifier: "UTC")))
        let total = tasks * rounds
        #expect(health.accepted == total && health.duplicates == total / 2)
        #expect(health.rejected == ["invalid_id": total, "too_old": tasks * (0..<rounds).map { $0 % 3 }.reduce(0, +)])
        #expect(health.dropped == ["too-old": 2 * total])
        let rows = try await store.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM ingest_health")! }
        // One row per bucket and (outcome, reason) with a count: zero counts add no row.
        var keys: Set<String> = []
        for round in 0..<rounds {
            let counts: [(count: Int, reason: String)] = [
                (1, "accepted"), (round % 2, "duplicate"), (1, "invalid_id"), (round % 3, "too_old"), (2, "too-old"),
            ]
            for entry in counts where entry.count > 0 { keys.insert("\(round % 96) \(entry.reason)") }
        }
        #expect(rows == keys.count)
    }
}

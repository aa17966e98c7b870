import Foundation
import SeededRandom
import TallyEvent
import TallyStoreTesting
import Testing

@testable import TallyStore

/// Deletions of a user concurrent with ingest of the same user and with reads: whichever
/// order they take, the rollups afterwards equal those of a store that received exactly the
/// raw events left, so no cached user number, label or log survived a deletion.
@Suite struct UserDeletionStressTests {
    @Test(arguments: TestDatabase.all)
    func deletionsRacingIngestAndReadsLeaveConsistentRollups(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Race").app.id
        _ = try await store.apps.update(app, segmentProperties: UserDataOracle.properties)
        try await UserDataOracle.insert(UserDataOracle.events(seed: 11), into: store, app: app, seed: 11)
        var random = SplitMix64(seed: 12)
        var deleted = 0
        for round in 0..<(ThreadSanitizer.isActive ? 12 : 25) {
            let batches = (0..<4).map { batch in
                (0..<Int.random(in: 1...30, using: &random)).map { index in
                    Event(
                        id: .random(using: &random), name: ["open", "tap", "screen_view"].randomElement(using: &random)!,
                        timestamp: Date(unixMilliseconds: MetricsPropertyTests.start + Int64.random(in: 0..<(10 * 86_400_000), using: &random)),
                        userID: index % 3 == 0 ? "user\(batch)" : UserDataOracle.deleted, sessionID: "r\(round)",
                        appVersion: "3.\(round)", platform: "iOS",
                        properties: ["ref": .string(UserDataOracle.deleted), "screen": .string("s\(round % 3)"), "plan": .string("p\(round)")],
                        isDebug: index % 7 == 0)
                }
            }
            deleted += try await withThrowingTaskGroup(of: Int.self) { group in
                for batch in batches {
                    group.addTask {
                        _ = try await store.events.insert(batch, app: app)
                        return 0
                    }
                }
                group.addTask {
                    do {
                        _ = try await store.userData.delete(app: app, user: UserDataOracle.deleted, by: "race")
                        return 1
                    } catch TallyStoreError.Code.unknownAppUser {
                        return 0
                    }
                }
                group.addTask {
                    _ = try await store.metrics.range(
                        ReadScope(app: app, days: CalendarDay("2026-02-09")!...CalendarDay("2026-02-21")!, timeZone: TimeZone(identifier: "UTC")))
                    _ = try await store.users.timeline(app: app, user: UserDataOracle.deleted)
                    _ = try await store.metrics.paths(
                        from: "open",
                        in: ReadScope(app: app, days: CalendarDay("2026-02-09")!...CalendarDay("2026-02-21")!, timeZone: TimeZone(identifier: "UTC")))
                    return 0
                }
                return try await group.reduce(0, +)
            }
        }
        #expect(deleted >= 5)
        #expect(try await store.userData.deletions(app: app).count == deleted)
        // A store given the raw events left reads the same.
        let rebuilt = try await database.makeStore()
        let copy = try await rebuilt.apps.create(name: "Rebuilt").app.id
        _ = try await rebuilt.apps.update(copy, segmentProperties: UserDataOracle.properties)
        for id in [app, app.debug] {
            var left: [Event] = []
            for try await event in store.events.export(app: id, from: Date(unixMilliseconds: 0), to: Date(unixMilliseconds: 4_000_000_000_000)) {
                var event = event
                event.isDebug = id.isDebug
                left.append(event)
            }
            _ = try await rebuilt.events.insert(left, app: copy)
        }
        let filters = Array(ThreadSanitizer.prefix(1, of: UserDataOracle.filters))
        let read = try await UserDataOracle.metrics(store, app: app, timeZone: "Asia/Kathmandu", filters: filters)
        let expected = try await UserDataOracle.metrics(rebuilt, app: copy, timeZone: "Asia/Kathmandu", filters: filters)
        let differing = Set(read.keys).union(expected.keys).filter { read[$0] != expected[$0] }.sorted()
        #expect(differing.isEmpty, "\(differing.prefix(5)) of \(differing.count)")
    }
}

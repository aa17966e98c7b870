import Foundation
import GRDB
import TallyEvent
import Testing

@testable import TallyApp
@testable import TallyStore

/// `tally serve`'s folding of deleted users' events: it folds when it starts, and again each
/// interval, until cancelled.
@Suite struct UserRemovalFolderTests {
    @Test func itFoldsAtStartAndAgainEachInterval() async throws {
        let (store, created) = try await TallyApplicationTests.makeStore()
        let app = created.app.id
        let start = Date().addingTimeInterval(-3_600)
        // Two users in four buckets: a deletion leaves a removal tail in each.
        let events = (0..<8).map { Event(id: UUID(), name: "open", timestamp: start.addingTimeInterval(Double($0 / 2) * 900), userID: "u\($0 % 2)") }
        try await store.events.insert(events, app: app)
        func count(_ table: String, _ condition: String = "true") async throws -> Int {
            try await store.pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM \(table) WHERE \(condition)") ?? 0 }
        }
        func removalTails() async throws -> Int { try await count("bucket_log_tail", "removed_user IS NOT NULL") }
        _ = try await store.userData.delete(app: app, user: "u0", by: "test")
        #expect(try await removalTails() == 4)
        let running = Task { await UserRemovalFolder(store: store, interval: .milliseconds(50)).run() }
        defer { running.cancel() }
        for user in ["u0", "u1"] {
            if user == "u1" { _ = try await store.userData.delete(app: app, user: user, by: "test") }
            var waited = 0
            while try await removalTails() > 0, waited < 200 {
                try await Task.sleep(for: .milliseconds(25))
                waited += 1
            }
            #expect(try await removalTails() == 0, "after deleting \(user)")
        }
        running.cancel()
        await running.value
        // Both users gone, their buckets' logs went with their events.
        #expect(try await count("bucket_log") == 0)
    }
}

import Foundation
import TallyStoreTesting
import Testing

@testable import TallyStore

/// Collectors sharing a PostgreSQL database hear of each other's events.
@Suite struct IngestNoticeTests {
    @Test func anotherStoreOnTheDatabaseHearsEachCommitButNotItsOwn() async throws {
        guard let server = TestDatabase.postgresURL else {
            #expect(TestDatabase.all == [.sqlite], "CI=true requires TALLY_TEST_POSTGRES_URL")
            return
        }
        let url = try await TestDatabase.createDatabase(on: server)
        let (first, second) = (try await EventStore(database: url), try await EventStore(database: url))
        let app = try await first.createApp(name: "Shared").app.id
        let heard = Task {
            var notices: [IngestNotice] = []
            for await notice in second.ingestNotices() {
                notices.append(notice)
                if notices.map(\.accepted).reduce(0, +) >= 3 { break }
            }
            return notices
        }
        let own = Task { () -> IngestNotice? in
            for await notice in first.ingestNotices() { return notice }
            return nil
        }
        // The listeners start on connections of their own.
        try await TestDatabase.waitForListeners(2, on: url)
        let at = instant("2026-03-01T10:00:00Z")
        try await first.insert([event(name: "open", at: at), event(name: "tap", at: at)], app: app)
        try await first.insert([event(name: "open", at: at, user: "u2")], app: app)
        let notices = await heard.value
        #expect(notices.allSatisfy { $0.app == app })
        #expect(notices.reduce(into: [:]) { $0.merge($1.acceptedByName, uniquingKeysWith: +) } == ["open": 2, "tap": 1])
        try await Task.sleep(for: .milliseconds(300))
        own.cancel()
        #expect(await own.value == nil)
    }

    @Test func aSQLiteStoreHasNoOtherWriters() async throws {
        var notices = 0
        for await _ in try makeStore().ingestNotices() { notices += 1 }
        #expect(notices == 0)
    }
}

import Foundation
import TallyEvent
import TallyStoreTesting
import Testing

@testable import TallyStore

/// The store's one stream of durable commits: this process's, and on PostgreSQL every other
/// collector's sharing the database.
@Suite struct CommitsTests {
    /// Each insert that stores events is one commit of its app (or debug id) with its count;
    /// an insert of duplicates only is none.
    @Test(arguments: TestDatabase.all) func everyInsertThatStoresEventsIsACommit(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Demo").app.id
        let commits = store.events.commits()
        let at = instant("2026-03-01T10:00:00Z")
        let first = [event(name: "open", at: at), event(name: "tap", at: at)]
        var debug = event(name: "open", at: at, user: "dev")
        debug.isDebug = true
        try await store.events.insert(first, app: app)
        try await store.events.insert(first, app: app)  // duplicates: nothing new
        try await store.events.insert([debug, event(name: "open", at: at, user: "u2")], app: app)
        var heard: [EventsCommitted] = []
        for await commit in commits {
            heard.append(commit)
            if heard.count == 3 { break }
        }
        #expect(heard == [.init(app: app, count: 2), .init(app: app, count: 1), .init(app: app.debug, count: 1)])
    }

    /// A stream whose reader stops is forgotten: many readers come and go, none is kept.
    @Test func streamsEndWithTheirReaders() async throws {
        let store = try makeStore()
        for _ in 0..<200 {
            let reader = Task { for await _ in store.events.commits() {} }
            reader.cancel()
            await reader.value
        }
        #expect(store.commitFeed.openStreams == 0)
    }

    @Test func anotherStoreOnTheDatabaseHearsEachCommitButNotItsOwnTwice() async throws {
        guard let server = TestDatabase.postgresURL else {
            #expect(TestDatabase.all == [.sqlite], "CI=true requires TALLY_TEST_POSTGRES_URL")
            return
        }
        let url = try await TestDatabase.createDatabase(on: server)
        let (first, second) = (try await EventStore(database: url), try await EventStore(database: url))
        let app = try await first.apps.create(name: "Shared").app.id
        let heard = Task {
            var commits: [EventsCommitted] = []
            for await commit in second.events.commits() {
                commits.append(commit)
                if commits.map(\.count).reduce(0, +) >= 3 { break }
            }
            return commits
        }
        let own = Task {
            var commits: [EventsCommitted] = []
            for await commit in first.events.commits() { commits.append(commit) }
            return commits
        }
        // The listeners start on connections of their own.
        try await TestDatabase.waitForListeners(2, on: url)
        let at = instant("2026-03-01T10:00:00Z")
        try await first.events.insert([event(name: "open", at: at), event(name: "tap", at: at)], app: app)
        try await first.events.insert([event(name: "open", at: at, user: "u2")], app: app)
        let commits = await heard.value
        #expect(commits == [.init(app: app, count: 2), .init(app: app, count: 1)])
        try await Task.sleep(for: .milliseconds(300))
        own.cancel()
        // The first store hears its own commits once, from itself, not again from the database.
        #expect(await own.value == [.init(app: app, count: 2), .init(app: app, count: 1)])
    }

    @Test func aSQLiteStoreHasNoOtherWriters() async throws {
        var commits = 0
        for await _ in try makeStore().backend.remoteCommits() { commits += 1 }
        #expect(commits == 0)
    }
}

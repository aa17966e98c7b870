import Foundation
import GRDB
import TallyEvent
import TallyStoreTesting
import Testing

@testable import TallyStore

/// A user's deletion: afterwards every metric equals that of a store that never received the
/// user's events, nothing stored holds the user's id, a record without it is kept, and the
/// user's next event makes a new user.
@Suite struct UserDeletionTests {
    @Test(arguments: TestDatabase.all, 1...3 as ClosedRange<UInt64>)
    func deletionLeavesWhatAStoreWithoutTheUserHas(database: TestDatabase, seed: UInt64) async throws {
        let timeZone = MetricsPropertyTests.timeZones[Int(seed) % MetricsPropertyTests.timeZones.count]
        let events = UserDataOracle.events(seed: seed)
        let (all, without) = (try await database.makeStore(), try await database.makeStore())
        var apps: [AppID] = []
        for store in [all, without] {
            let app = try await store.apps.create(name: "Deletion").app.id
            // Segment properties before ingest on odd seeds, after it (a rebuild) on even ones.
            if seed % 2 == 1 { _ = try await store.apps.update(app, segmentProperties: UserDataOracle.properties) }
            apps.append(app)
        }
        // Another app's user of the same id stays.
        let other = try await all.apps.create(name: "Other").app.id
        _ = try await all.events.insert([event(at: Date(unixMilliseconds: MetricsPropertyTests.start), user: UserDataOracle.deleted)], app: other)
        try await UserDataOracle.insert(events, into: all, app: apps[0], seed: seed)
        try await UserDataOracle.insert(events.filter { $0.userID != UserDataOracle.deleted }, into: without, app: apps[1], seed: seed)
        for (store, app) in zip([all, without], apps) where seed % 2 == 0 {
            _ = try await store.apps.update(app, segmentProperties: UserDataOracle.properties)
        }
        // Caches warm with the user before the deletion.
        let before = try await UserDataOracle.metrics(all, app: apps[0], timeZone: timeZone)
        var numbers: [AppID: UInt32] = [:]
        for id in [apps[0], apps[0].debug] {
            numbers[id] = try await all.backend.userNumbers(app: id, users: [UserDataOracle.deleted])[UserDataOracle.deleted]
        }
        let logged = try await UserDataOracle.logEvents(of: numbers, in: all, database: database).events

        let deletion = try await all.userData.delete(app: apps[0], user: UserDataOracle.deleted, by: "ada")

        let deletedEvents = Set(events.filter { $0.userID == UserDataOracle.deleted }.map(\.id)).count
        #expect(deletion.events == deletedEvents && deletion.deletedBy == "ada" && deletion.app == apps[0])
        let after = try await UserDataOracle.metrics(all, app: apps[0], timeZone: timeZone)
        let expected = try await UserDataOracle.metrics(without, app: apps[1], timeZone: timeZone)
        let differing = Set(after.keys).union(expected.keys).filter { after[$0] != expected[$0] }.sorted()
        #expect(differing.isEmpty, "seed \(seed), \(timeZone): \(differing.prefix(5)) of \(differing.count)")
        // Not vacuous: the user changed what was read.
        #expect(before.keys.filter { before[$0] != expected[$0] }.count > 50)
        let holding = try await UserDataOracle.columns(holding: UserDataOracle.deleted, in: all, database: database)
        // Only the other app's user and event (its `app_user` row and raw event).
        #expect(Set(holding) == ["app_user.user_id", "event.user_id", "event.session_id"], "\(holding)")
        // Values only the user sent (name, screen, version, currency) are nowhere; others' stay.
        for text in UserDataOracle.sentByTheDeletedOnly {
            #expect(try await UserDataOracle.columns(holding: text, in: all, database: database) == [], "\(text)")
        }
        for text in ["tap", "s1", "2.0", "b1", "pro"] {
            #expect(try await UserDataOracle.columns(holding: text, in: all, database: database).contains("label.text"), "\(text)")
        }
        #expect(try await all.users.timeline(app: other, user: UserDataOracle.deleted)?.events.count == 1)
        #expect(try await all.userData.deletions(app: apps[0]) == [deletion])
        #expect(try await all.userData.deletions(app: other) == [])

        // The logs keep the user's events, hidden by removal tails, until buckets are folded:
        // some by the commits of later events in them (33 fold a bucket's 32 tails), the rest
        // by the folding of removals. Then no log holds them and every read is still exact.
        let hidden = try await UserDataOracle.logEvents(of: numbers, in: all, database: database)
        #expect(hidden.events == logged && hidden.events > 0 && hidden.removalTails > 0)
        let userTimes = events.filter { $0.userID == UserDataOracle.deleted && !$0.isDebug }.map(\.timestamp).sorted()
        for round in 0..<33 {
            let later = userTimes.prefix(3).map { event(at: $0, user: "later\(round)") }
            for (store, app) in zip([all, without], apps) { _ = try await store.events.insert(later, app: app) }
        }
        let committed = try await UserDataOracle.logEvents(of: numbers, in: all, database: database)
        #expect(committed.events < hidden.events && committed.removalTails < hidden.removalTails)
        #expect(try await all.userData.foldRemovals() == committed.removalTails)
        #expect(try await all.userData.foldRemovals() == 0)
        let folded = try await UserDataOracle.logEvents(of: numbers, in: all, database: database)
        #expect(folded.events == 0 && folded.removalTails == 0)
        let afterFolds = try await UserDataOracle.metrics(all, app: apps[0], timeZone: timeZone)
        let expectedAfterFolds = try await UserDataOracle.metrics(without, app: apps[1], timeZone: timeZone)
        let differingAfterFolds = Set(afterFolds.keys).union(expectedAfterFolds.keys).filter { afterFolds[$0] != expectedAfterFolds[$0] }
        #expect(differingAfterFolds.isEmpty, "seed \(seed), \(timeZone): \(differingAfterFolds.sorted().prefix(5)) after folds")
    }

    @Test(arguments: TestDatabase.all)
    func theIdLeavesEveryTableAndLabel(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Scan").app.id
        _ = try await store.apps.update(app, segmentProperties: UserDataOracle.properties)
        let events = UserDataOracle.events(seed: 9)
        try await UserDataOracle.insert(events, into: store, app: app, seed: 9)
        #expect(try await UserDataOracle.columns(holding: UserDataOracle.deleted, in: store, database: database).count >= 4)
        _ = try await store.userData.delete(app: app, user: UserDataOracle.deleted, by: "cli")
        #expect(try await UserDataOracle.columns(holding: UserDataOracle.deleted, in: store, database: database) == [])
        for text in UserDataOracle.sentByTheDeletedOnly {
            #expect(try await UserDataOracle.columns(holding: text, in: store, database: database) == [], "\(text)")
        }
        #expect(try await store.users.search(app: app, prefix: "zq").isEmpty)
    }

    /// A deletion on SQLite whose process was killed after it detached the user and took a
    /// chunk of buckets out is finished by the next ``EventStore/foldUserRemovals()`` once
    /// nobody has written to it for a minute: every metric then reads as in a store that never
    /// had the user, and the record counts every event.
    @Test func aDeletionCutShortIsFinishedLater() async throws {
        let events = UserDataOracle.events(seed: 4)
        let (all, without) = (try await TestDatabase.sqlite.makeStore(), try await TestDatabase.sqlite.makeStore())
        var apps: [AppID] = []
        for store in [all, without] {
            let app = try await store.apps.create(name: "Cut short").app.id
            _ = try await store.apps.update(app, segmentProperties: UserDataOracle.properties)
            apps.append(app)
        }
        try await UserDataOracle.insert(events, into: all, app: apps[0], seed: 4)
        try await UserDataOracle.insert(events.filter { $0.userID != UserDataOracle.deleted }, into: without, app: apps[1], seed: 4)
        let backend = try #require(all.backend as? SQLiteBackend)
        let app = apps[0]
        let minuteAgo = Date().addingTimeInterval(-61).unixMilliseconds
        let chunks = try await backend.pool.write { db in
            let erasure = try #require(try PendingErasure.detach(UserDataOracle.deleted, app: app, by: "ada", at: minuteAgo, db))
            let chunks = try SQLiteBackend.chunks(of: erasure.parts[0], limit: 20, db)
            try SQLiteBackend.erase(chunks[0], of: erasure.parts[0], in: erasure, db)
            try db.execute(sql: "UPDATE user_erasure SET touched = ?", arguments: [minuteAgo])
            return chunks.count
        }
        #expect(chunks > 1, "the user's events span more than one chunk")
        #expect(try await all.users.search(app: apps[0], prefix: UserDataOracle.deleted).isEmpty, "detached at once")

        try await all.userData.foldRemovals()
        let timeZone = "Asia/Shanghai"
        let (after, expected) = (
            try await UserDataOracle.metrics(all, app: apps[0], timeZone: timeZone),
            try await UserDataOracle.metrics(without, app: apps[1], timeZone: timeZone)
        )
        let differing = Set(after.keys).union(expected.keys).filter { after[$0] != expected[$0] }.sorted()
        #expect(differing.isEmpty, "\(differing.prefix(5)) of \(differing.count)")
        let deleted = Set(events.filter { $0.userID == UserDataOracle.deleted }.map(\.id)).count
        #expect(try await all.userData.deletions(app: apps[0]).map(\.events) == [deleted])
        #expect(try await backend.pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM user_erasure") } == 0)
    }

    /// The deleted user's events sent again (an SDK's retry, a replayed log) are duplicates:
    /// their ids stay known, without the user's, so the history does not come back.
    @Test(arguments: TestDatabase.all)
    func replayedEventsAreDuplicates(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Replay").app.id
        let start = Date().addingTimeInterval(-86_400)
        // More events than one write of the deletion takes.
        let sent = (0..<2_500).map { event(name: $0 % 3 == 0 ? "open" : "tap", at: start.addingTimeInterval(Double($0) * 20), user: "gone") }
        _ = try await store.events.insert(sent + [event(at: start, user: "stays")], app: app)
        let deletion = try await store.userData.delete(app: app, user: "gone", by: "cli")
        #expect(deletion.events == sent.count)
        for batch in stride(from: 0, to: sent.count, by: 500).map({ Array(sent[$0..<$0 + 500]) }) {
            #expect(try await store.events.insert(batch, app: app) == InsertResult(accepted: 0, duplicates: 500))
        }
        #expect(try await store.users.timeline(app: app, user: "gone") == nil)
        #expect(try await store.users.search(app: app, prefix: "").map(\.id) == ["stays"])
        // A new event of the user's is stored, as a new user's.
        #expect(try await store.events.insert([event(at: start, user: "gone")], app: app) == InsertResult(accepted: 1, duplicates: 0))
    }

    /// Neither the SQLite file nor its WAL keeps a text only the deleted user sent: deleted
    /// rows are overwritten with zeros, and the WAL is checkpointed and emptied.
    @Test func theFilesKeepNothingOnlyTheUserSent() async throws {
        let path = try await TestDatabase.sqlite.makeDatabase()
        let store = try await EventStore(database: path)
        let app = try await store.apps.create(name: "Files").app.id
        _ = try await store.apps.update(app, segmentProperties: SegmentProperties(event: ["note"], user: ["plan"]))
        let start = Date().addingTimeInterval(-3_600)
        let secrets = ["ada.lovelace@example.org", "Secret Screen Name", "secret_event_name", "a note only ada wrote", "plan-of-ada"]
        let sent = [
            event(name: "screen_view", at: start, user: secrets[0], properties: ["screen": .string(secrets[1])]),
            event(name: secrets[2], at: start.addingTimeInterval(1), user: secrets[0], properties: ["note": .string(secrets[3])]),
            event(name: "identify", at: start.addingTimeInterval(2), user: secrets[0], properties: ["plan": .string(secrets[4])]),
            event(name: "screen_view", at: start, user: "bob", properties: ["screen": "Home", "note": "shared note"]),
        ]
        _ = try await store.events.insert(sent, app: app)
        _ = try await store.userData.delete(app: app, user: secrets[0], by: "cli")
        let files = try [path, path + "-wal"].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        for secret in secrets {
            #expect(files.allSatisfy { $0.range(of: Data(secret.utf8)) == nil }, "\(secret)")
        }
        #expect(files[1].isEmpty)
        #expect(files[0].range(of: Data("shared note".utf8)) != nil)
    }

    @Test(arguments: TestDatabase.all)
    func theNextEventMakesANewUser(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Again").app.id
        let start = Date(unixMilliseconds: MetricsPropertyTests.start)
        _ = try await store.events.insert(
            (0..<5).map { event(at: start.addingTimeInterval(Double($0) * 3_600), user: $0 == 0 ? "other" : "gone") }, app: app)
        let numbers = try await store.backend.userNumbers(app: app, users: ["other", "gone"])
        _ = try await store.userData.delete(app: app, user: "gone", by: "cli")
        let later = start.addingTimeInterval(3 * 86_400)
        _ = try await store.events.insert([event(at: later, user: "gone")], app: app)
        let user = try #require(try await store.users.timeline(app: app, user: "gone"))
        #expect(user.user.firstSeen == later && user.events.count == 1)
        let renumbered = try await store.backend.userNumbers(app: app, users: ["gone"])
        #expect(renumbered["gone"] != nil && renumbered["gone"] != numbers["gone"])
        let day = try await store.metrics.day(ReadScope(app: app, day: CalendarDay("2026-02-10")!, timeZone: TimeZone(identifier: "UTC")))
        #expect(day.dau == 1 && day.newUsers == 1)
        let returning = try await store.metrics.day(ReadScope(app: app, day: CalendarDay("2026-02-13")!, timeZone: TimeZone(identifier: "UTC")))
        #expect(returning.dau == 1 && returning.newUsers == 1)
    }

    @Test(arguments: TestDatabase.all)
    func anUnknownUserIsAClearErrorAndChangesNothing(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let (app, other) = (try await store.apps.create(name: "One").app.id, try await store.apps.create(name: "Two").app.id)
        _ = try await store.events.insert([event(at: Date(unixMilliseconds: MetricsPropertyTests.start), user: "someone")], app: app)
        await #expect(throws: TallyStoreError.unknownAppUser("nobody")) {
            try await store.userData.delete(app: app, user: "nobody", by: "cli")
        }
        // Another app's user is not this app's.
        await #expect(throws: TallyStoreError.unknownAppUser("someone")) {
            try await store.userData.delete(app: other, user: "someone", by: "cli")
        }
        await #expect(throws: TallyStoreError.unknownApp(AppID(rawValue: 999))) {
            try await store.userData.delete(app: AppID(rawValue: 999), user: "someone", by: "cli")
        }
        #expect(TallyStoreError.unknownAppUser("nobody").description == #"The app has no user "nobody"."#)
        #expect(try await store.users.search(app: app, prefix: "").map(\.id) == ["someone"])
        #expect(try await store.userData.deletions(app: app).isEmpty)
    }

    @Test(arguments: TestDatabase.all)
    func debugBuildsLoseTheUserToo(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Debug").app.id
        let start = Date(unixMilliseconds: MetricsPropertyTests.start)
        _ = try await store.events.insert(
            [
                Event(id: UUID(), name: "open", timestamp: start, userID: "dev", isDebug: true),
                Event(id: UUID(), name: "open", timestamp: start, userID: "dev"),
            ], app: app)
        let deletion = try await store.userData.delete(app: app, user: "dev", by: "cli")
        #expect(deletion.events == 2)
        #expect(try await store.users.search(app: app.debug, prefix: "").isEmpty)
        #expect(try await store.users.search(app: app, prefix: "").isEmpty)
    }
}

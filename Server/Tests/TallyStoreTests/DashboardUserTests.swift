import Foundation
import GRDB
import TallyStoreTesting
import Testing

@testable import TallyStore

@Suite struct DashboardUserTests {
    @Test(arguments: TestDatabase.all) func usersAreCreatedFoundAndListed(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let ana = try await store.accounts.create(name: "Ana", passwordHash: "$2b$12$hashA")
        let bo = try await store.accounts.create(name: String(repeating: "b", count: 64), passwordHash: "$2b$12$hashB")
        let found = try #require(try await store.accounts.account(named: "Ana"))
        #expect(found.user == ana && found.passwordHash == "$2b$12$hashA")
        #expect(try await store.accounts.account(named: "ana") == nil)
        #expect(try await store.accounts.all() == [ana, bo])
    }

    @Test(arguments: TestDatabase.all, ["", String(repeating: "x", count: 65), "a\nb", "tab\there", "\u{7F}"])
    func invalidNamesThrow(database: TestDatabase, name: String) async throws {
        let store = try await database.makeStore()
        await #expect(throws: TallyStoreError.invalidUserName(name)) { try await store.accounts.create(name: name, passwordHash: "h") }
        #expect(try await store.accounts.all().isEmpty)
    }

    @Test(arguments: TestDatabase.all) func takenNamesThrow(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        try await store.accounts.create(name: "Ana", passwordHash: "h1")
        await #expect(throws: TallyStoreError.userNameTaken("Ana")) { try await store.accounts.create(name: "Ana", passwordHash: "h2") }
        #expect(try await store.accounts.account(named: "Ana")?.passwordHash == "h1")
    }

    @Test func sessionsExpireAndSurviveARestart() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("TallyStoreTests-\(UUID().uuidString).sqlite").path
        let now = instant("2026-03-01T12:00:00Z")
        let token = Data(repeating: 1, count: 32)
        let expired = Data(repeating: 2, count: 32)
        let created: DashboardSession
        do {
            let store = try EventStore(path: path)
            let ana = try await store.accounts.create(name: "Ana", passwordHash: "h")
            created = try await store.accounts.createSession(user: ana.id, tokenHash: token, expiresAt: now.addingTimeInterval(3600))
            try await store.accounts.createSession(user: ana.id, tokenHash: expired, expiresAt: now)
            #expect(created.user == ana && created.csrfToken.count == 43)
        }
        let store = try EventStore(path: path)
        #expect(try await store.accounts.session(tokenHash: token, now: now) == created)
        #expect(try await store.accounts.session(tokenHash: token, now: now.addingTimeInterval(3600)) == nil)
        #expect(try await store.accounts.session(tokenHash: expired, now: now) == nil)
        #expect(try await store.accounts.session(tokenHash: Data(repeating: 3, count: 32), now: now) == nil)
        #expect(try await store.accounts.deleteExpiredSessions(now: now) == 1)
        #expect(try await store.accounts.deleteExpiredSessions(now: now) == 0)
        try await store.accounts.deleteSession(tokenHash: token)
        #expect(try await store.accounts.session(tokenHash: token, now: now) == nil)
        await #expect(throws: TallyStoreError.unknownUser(DashboardUserID(rawValue: 42))) {
            try await store.accounts.createSession(user: DashboardUserID(rawValue: 42), tokenHash: token, expiresAt: now)
        }
    }

    @Test func sessionsPerUserAreBounded() async throws {
        let store = try makeStore()
        let ana = try await store.accounts.create(name: "Ana", passwordHash: "h")
        let bo = try await store.accounts.create(name: "Bo", passwordHash: "h")
        let start = instant("2026-03-01T00:00:00Z")
        try await store.accounts.createSession(user: bo.id, tokenHash: Data("bo".utf8), expiresAt: start)
        let rounds = 3 * AccountStore.maximumSessionsPerUser
        for round in 0..<rounds {
            try await store.accounts.createSession(
                user: ana.id, tokenHash: Data("ana\(round)".utf8), expiresAt: start.addingTimeInterval(Double(round)))
        }
        let kept = try await store.pool.read { db in
            try Data.fetchAll(db, sql: "SELECT token_hash FROM dashboard_session WHERE user_id = ?", arguments: [ana.id.rawValue])
        }
        #expect(Set(kept) == Set((rounds - AccountStore.maximumSessionsPerUser..<rounds).map { Data("ana\($0)".utf8) }))
        #expect(try await store.accounts.session(tokenHash: Data("bo".utf8), now: start.addingTimeInterval(-1)) != nil)
    }

    @Test(arguments: TestDatabase.all) func sectionLayoutsArePerUserAndAppAndBounded(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let ana = try await store.accounts.create(name: "Ana", passwordHash: "h").id
        let bo = try await store.accounts.create(name: "Bo", passwordHash: "h").id
        let app = try await store.apps.create(name: "Demo").app.id
        let other = try await store.apps.create(name: "Other").app.id
        #expect(try await store.accounts.sectionLayout(user: ana, app: app) == nil)
        try await store.accounts.saveSectionLayout(Data("[1]".utf8), user: ana, app: app)
        try await store.accounts.saveSectionLayout(Data("[2]".utf8), user: ana, app: app)
        let largest = Data(repeating: 0x20, count: AccountStore.maximumSectionLayoutBytes)
        try await store.accounts.saveSectionLayout(largest, user: bo, app: app)
        #expect(try await store.accounts.sectionLayout(user: ana, app: app) == Data("[2]".utf8))
        #expect(try await store.accounts.sectionLayout(user: bo, app: app) == largest)
        #expect(try await store.accounts.sectionLayout(user: ana, app: other) == nil)

        await #expect(throws: TallyStoreError.sectionLayoutTooLarge(bytes: largest.count + 1)) {
            try await store.accounts.saveSectionLayout(largest + [0x20], user: ana, app: app)
        }
        await #expect(throws: TallyStoreError.unknownUser(DashboardUserID(rawValue: 99))) {
            try await store.accounts.saveSectionLayout(Data(), user: DashboardUserID(rawValue: 99), app: app)
        }
        await #expect(throws: TallyStoreError.unknownApp(AppID(rawValue: 99))) {
            try await store.accounts.saveSectionLayout(Data(), user: ana, app: AppID(rawValue: 99))
        }
        #expect(try await store.accounts.sectionLayout(user: ana, app: app) == Data("[2]".utf8))
    }
}

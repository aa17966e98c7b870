import Foundation
import GRDB
import TallyStoreTesting
import Testing

@testable import TallyStore

@Suite struct AppTests {
    /// An id of any value, as a URL may name it, has a production and a debug id; only
    /// `Int64.min`, which no app has, has no other.
    @Test func everyIdHasAProductionAndADebugTwin() {
        for raw: Int64 in [1, 42, .max, 0, -1, -42, -.max, .min] {
            let id = AppID(rawValue: raw)
            #expect(id.production.debug == id.debug && id.debug.production == id.production)
            if raw != .min { #expect(id.production.rawValue == Int64(raw.magnitude) && id.debug.rawValue == -id.production.rawValue) }
        }
        #expect(AppID(rawValue: .min).production.rawValue == .min)
    }

    @Test func keysAreRandomURLSafeAndStoredHashed() async throws {
        let store = try makeStore()
        let created = try await store.apps.create(name: "Demo")
        let other = try await store.apps.create(name: "Other", timeZone: "Asia/Kathmandu", acceptedEventAge: 3600)

        let urlSafe = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for key in [created.ingestKey, created.readToken, other.ingestKey, other.readToken] {
            #expect(key.count == 46)  // 3-character prefix + 43 base64url characters = 256 bits
            #expect(key.dropFirst(3).unicodeScalars.allSatisfy(urlSafe.contains))
        }
        #expect(Set([created.ingestKey, created.readToken, other.ingestKey, other.readToken]).count == 4)
        #expect(created.app.timeZone == "UTC")
        #expect(created.app.acceptedEventAge == App.defaultAcceptedEventAge)

        let stored = try await store.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM app").flatMap { row in row.databaseValues.map(\.description) }
        }
        for secret in [created.ingestKey, created.readToken] {
            #expect(!stored.contains { $0.contains(secret) })
            #expect(!stored.contains { $0.contains(secret.dropFirst(3)) })
        }
    }

    @Test(arguments: TestDatabase.all) func lookupByKeyFindsTheAppAndWrongKeysFail(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let first = try await store.apps.create(name: "First")
        let second = try await store.apps.create(name: "Second", timeZone: "Asia/Shanghai")

        #expect(try await store.apps.app(ingestKey: first.ingestKey) == first.app)
        #expect(try await store.apps.app(readToken: first.readToken) == first.app)
        #expect(try await store.apps.app(ingestKey: second.ingestKey) == second.app)
        #expect(try await store.apps.app(id: second.app.id) == second.app)
        #expect(try await store.apps.all() == [first.app, second.app])

        #expect(try await store.apps.app(ingestKey: first.readToken) == nil)  // a read token is not an ingest key
        #expect(try await store.apps.app(readToken: first.ingestKey) == nil)
        #expect(try await store.apps.app(ingestKey: first.ingestKey + "x") == nil)
        #expect(try await store.apps.app(ingestKey: "") == nil)
        #expect(try await store.apps.app(id: AppID(rawValue: 999)) == nil)
    }

    /// The ingest server turns the age into a cut-off time and a message; an infinite, NaN
    /// or absurd age would trap there on every old event, so the store never keeps one.
    @Test(arguments: TestDatabase.all, [0, -1, .infinity, -.infinity, .nan, 1e308, App.maximumAcceptedEventAge + 1] as [Double])
    func acceptedEventAgesOutOfRangeAreRefused(database: TestDatabase, age: Double) async throws {
        let store = try await database.makeStore()
        await #expect(throws: TallyStoreError.self) { try await store.apps.create(name: "Demo", acceptedEventAge: age) }
        let app = try await store.apps.create(name: "Demo").app.id
        await #expect(throws: TallyStoreError.self) { try await store.apps.update(app, acceptedEventAge: age) }
        #expect(try await store.apps.app(id: app)?.acceptedEventAge == App.defaultAcceptedEventAge)
    }

    @Test(arguments: TestDatabase.all) func rotatingKeysReplacesBothSecrets(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let created = try await store.apps.create(name: "Demo")
        let rotated = try await store.apps.rotateKeys(created.app.id)
        #expect(rotated.app == created.app)
        #expect(try await store.apps.app(ingestKey: created.ingestKey) == nil)
        #expect(try await store.apps.app(readToken: created.readToken) == nil)
        #expect(try await store.apps.app(ingestKey: rotated.ingestKey) == created.app)
        #expect(try await store.apps.app(readToken: rotated.readToken) == created.app)
        await #expect(throws: TallyStoreError.unknownApp(AppID(rawValue: 42))) { try await store.apps.rotateKeys(AppID(rawValue: 42)) }
    }

    @Test(arguments: TestDatabase.all) func updateChangesSettingsAndValidates(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let created = try await store.apps.create(name: "Demo")
        let updated = try await store.apps.update(created.app.id, timeZone: "Europe/Paris", acceptedEventAge: 86_400)
        #expect(updated.timeZone == "Europe/Paris")
        #expect(updated.acceptedEventAge == 86_400)
        #expect(try await store.apps.app(id: created.app.id) == updated)

        await #expect(throws: TallyStoreError.invalidTimeZone("Nowhere/Land")) {
            try await store.apps.update(created.app.id, timeZone: "Nowhere/Land")
        }
        await #expect(throws: TallyStoreError.unknownApp(AppID(rawValue: 42))) {
            try await store.apps.update(AppID(rawValue: 42), acceptedEventAge: 1)
        }
        await #expect(throws: TallyStoreError.invalidTimeZone("")) {
            try await store.apps.create(name: "Bad", timeZone: "")
        }
    }

    @Test func writerSyncsEveryCommit() async throws {
        let store = try makeStore()
        let (journal, synchronous) = try await store.pool.write { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
        }
        #expect(journal == "wal")
        #expect(synchronous == 2)  // FULL
        // Group commits sync the WAL themselves; the connection's other writes keep FULL.
        let app = try await store.apps.create(name: "Demo").app.id
        try await store.events.insert([event(at: instant("2026-03-01T10:00:00Z"))], app: app)
        #expect(try await store.pool.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") } == 2)
    }
}

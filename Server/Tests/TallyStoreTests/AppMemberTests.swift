import Foundation
import GRDB
import PostgresNIO
import TallyStoreTesting
import Testing

@testable import TallyStore

@Suite struct AppMemberTests {
    @Test(arguments: TestDatabase.all) func rolesAreGrantedChangedListedAndRevoked(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let (ana, bo) = (
            try await store.accounts.create(name: "ana", passwordHash: "h"), try await store.accounts.create(name: "bo", passwordHash: "h")
        )
        let (shop, blog) = (try await store.apps.create(name: "Shop").app, try await store.apps.create(name: "Blog").app)
        #expect(try await store.members.apps(visibleTo: ana.id).isEmpty)
        #expect(try await store.members.setRole(.owner, of: ana.id, in: shop.id) == nil)
        #expect(try await store.members.setRole(.viewer, of: bo.id, in: shop.id) == nil)
        #expect(try await store.members.setRole(.editor, of: bo.id, in: shop.id) == .viewer)
        #expect(try await store.members.setRole(.viewer, of: bo.id, in: blog.id) == nil)
        #expect(try await store.members.list(app: shop.id) == [AppMember(user: ana, role: .owner), AppMember(user: bo, role: .editor)])
        #expect(try await store.members.role(of: bo.id, in: shop.id) == .editor)
        #expect(try await store.members.role(of: ana.id, in: blog.id) == nil)
        #expect(try await store.members.apps(visibleTo: ana.id).map(\.id) == [shop.id])
        #expect(try await store.members.apps(visibleTo: bo.id).map(\.id) == [shop.id, blog.id])

        #expect(try await store.members.roles(of: [ana.id, bo.id]) == [ana.id: [shop.id: .owner], bo.id: [shop.id: .editor, blog.id: .viewer]])
        #expect(try await store.members.roles(of: [bo.id]).keys.sorted { $0.rawValue < $1.rawValue } == [bo.id])

        #expect(try await store.members.remove(bo.id, from: shop.id) == .editor)
        #expect(try await store.members.remove(bo.id, from: shop.id) == nil)
        #expect(try await store.members.role(of: bo.id, in: shop.id) == nil)
        #expect(try await store.members.apps(visibleTo: bo.id).map(\.id) == [blog.id])
    }

    @Test(arguments: TestDatabase.all) func anAppKeepsAnOwner(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let (ana, bo) = (
            try await store.accounts.create(name: "ana", passwordHash: "h"), try await store.accounts.create(name: "bo", passwordHash: "h")
        )
        let shop = try await store.apps.create(name: "Shop").app
        try await store.members.setRole(.owner, of: ana.id, in: shop.id)
        try await store.members.setRole(.editor, of: bo.id, in: shop.id)
        await #expect(throws: TallyStoreError.lastOwner(shop.id)) { try await store.members.remove(ana.id, from: shop.id) }
        await #expect(throws: TallyStoreError.lastOwner(shop.id)) { try await store.members.setRole(.editor, of: ana.id, in: shop.id) }
        #expect(try await store.members.role(of: ana.id, in: shop.id) == .owner)
        // With a second owner, either may go.
        try await store.members.setRole(.owner, of: bo.id, in: shop.id)
        #expect(try await store.members.setRole(.viewer, of: ana.id, in: shop.id) == .owner)
        await #expect(throws: TallyStoreError.lastOwner(shop.id)) { try await store.members.remove(bo.id, from: shop.id) }
        #expect(try await store.members.list(app: shop.id).map(\.role) == [.viewer, .owner])
    }

    @Test(arguments: TestDatabase.all) func unknownUsersAndAppsAreRefused(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let ana = try await store.accounts.create(name: "ana", passwordHash: "h")
        let shop = try await store.apps.create(name: "Shop").app
        let nobody = DashboardUserID(rawValue: 99)
        await #expect(throws: TallyStoreError.unknownUser(nobody)) { try await store.members.setRole(.owner, of: nobody, in: shop.id) }
        await #expect(throws: TallyStoreError.unknownApp(AppID(rawValue: 99))) {
            try await store.members.setRole(.owner, of: ana.id, in: AppID(rawValue: 99))
        }
        #expect(try await store.members.list(app: shop.id).isEmpty)
    }

    /// An app's debug id has the members of its production id: reading and changing them.
    @Test(arguments: TestDatabase.all) func aDebugIdSharesItsAppsMembers(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let ana = try await store.accounts.create(name: "ana", passwordHash: "h")
        let shop = try await store.apps.create(name: "Shop").app
        try await store.members.setRole(.editor, of: ana.id, in: shop.id.debug)
        #expect(try await store.members.role(of: ana.id, in: shop.id) == .editor)
        #expect(try await store.members.role(of: ana.id, in: shop.id.debug) == .editor)
        #expect(try await store.members.list(app: shop.id.debug) == [AppMember(user: ana, role: .editor)])
        #expect(try await store.members.remove(ana.id, from: shop.id.debug) == .editor)
        #expect(try await store.members.list(app: shop.id).isEmpty)
    }

    /// A deleted user's memberships go with the account.
    @Test(arguments: TestDatabase.all) func deletingAUserRemovesTheirMemberships(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let (ana, bo) = (
            try await store.accounts.create(name: "ana", passwordHash: "h"), try await store.accounts.create(name: "bo", passwordHash: "h")
        )
        let shop = try await store.apps.create(name: "Shop").app
        try await store.members.setRole(.owner, of: ana.id, in: shop.id)
        try await store.members.setRole(.viewer, of: bo.id, in: shop.id)
        switch database {
        case .sqlite: try await store.pool.write { db in try db.execute(sql: "DELETE FROM dashboard_user WHERE id = ?", arguments: [bo.id.rawValue]) }
        case .postgres: try await store.postgres.execute("DELETE FROM dashboard_user WHERE id = \(bo.id.rawValue)")
        }
        #expect(try await store.members.list(app: shop.id) == [AppMember(user: ana, role: .owner)])
    }

    /// Upgrading a database from before roles (migration "members") makes every
    /// user an owner of every app: nobody loses access.
    @Test(arguments: TestDatabase.all) func theMigrationMakesEveryUserAnOwnerOfEveryApp(database: TestDatabase) async throws {
        let url = try await database.makeDatabase()
        let store = try await EventStore(database: url)
        let (ana, bo) = (
            try await store.accounts.create(name: "ana", passwordHash: "h"), try await store.accounts.create(name: "bo", passwordHash: "h")
        )
        let (shop, blog) = (try await store.apps.create(name: "Shop").app, try await store.apps.create(name: "Blog").app)
        switch database {
        case .sqlite:
            try await store.pool.write { db in
                try db.execute(sql: "DROP TABLE app_member; DELETE FROM grdb_migrations WHERE identifier = 'members'")
            }
        case .postgres:
            try await TestDatabase.withClient(on: url) { client in
                for statement in ["DROP TABLE app_member", "DELETE FROM schema_migration WHERE name = 'members'"] {
                    try await client.query(PostgresQuery(unsafeSQL: statement))
                }
            }
        }
        let upgraded = try await EventStore(database: url)
        for app in [shop, blog] {
            #expect(try await upgraded.members.list(app: app.id) == [AppMember(user: ana, role: .owner), AppMember(user: bo, role: .owner)])
        }
        #expect(try await upgraded.members.apps(visibleTo: bo.id).map(\.id) == [shop.id, blog.id])
    }

    @Test func rolesAreOrdered() {
        #expect(AppRole.allCases.sorted() == [.viewer, .editor, .owner])
        #expect(AppRole.allCases.map(\.canEdit) == [false, true, true])
        #expect(AppRole.allCases.map(\.canManageMembers) == [false, false, true])
    }
}

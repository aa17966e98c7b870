import Foundation
import TallyStore
import TallyStoreTesting
import Testing

@testable import TallyServer

/// The directory answers a token it has just resolved from memory, without the store: a read
/// token, presented on every read, is not looked up as a write token first each time.
@Suite struct AppDirectoryTests {
    @Test func resolvedTokensAreAnsweredFromMemoryForWhatTheyMayDo() async throws {
        let database = try await TestDatabase.sqlite.makeDatabase()
        defer { TestDatabase.sqlite.removeDatabase(database) }
        let store = try await EventStore(database: database)
        let app = try await store.apps.create(name: "Tokens")
        let directory = AppDirectory(store: store)
        #expect(directory.rememberedApp(token: app.readToken, writing: false) == nil)
        #expect(try await directory.app(readToken: app.readToken)?.id == app.app.id)
        #expect(directory.rememberedApp(token: app.readToken, writing: false)?.id == app.app.id)
        #expect(directory.rememberedApp(token: app.readToken, writing: true) == nil, "a read token cannot write")
        #expect(try await directory.app(writeToken: app.writeToken)?.id == app.app.id)
        #expect(directory.rememberedApp(token: app.writeToken, writing: true)?.id == app.app.id)
        #expect(directory.rememberedApp(token: app.writeToken, writing: false)?.id == app.app.id)
        #expect(directory.rememberedApp(token: "rt_unknown", writing: false) == nil)
    }
}

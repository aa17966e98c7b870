import Foundation
import TallyStoreTesting
import Testing

@testable import TallyStore

/// Annotations and the write token that makes them.
@Suite struct AnnotationTests {
    static func date(_ text: String) -> Date { try! Date(text, strategy: Date.ISO8601FormatStyle()) }

    @Test(arguments: TestDatabase.all)
    func annotationsAreReadByTimeRange(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Notes").app
        let other = try await store.apps.create(name: "Other").app
        let late = try await store.annotations.add(app: app.id, time: Self.date("2026-03-02T10:00:00Z"), text: "  v2.3 released \n")
        let early = try await store.annotations.add(app: app.id.debug, time: Self.date("2026-03-01T10:00:00Z"), text: "campaign")
        try await store.annotations.add(app: other.id, time: Self.date("2026-03-01T11:00:00Z"), text: "other app")
        #expect(late.text == "v2.3 released")
        let all = try await store.annotations.list(app: app.id, from: Self.date("2026-03-01T00:00:00Z"), to: Self.date("2026-03-03T00:00:00Z"))
        #expect(all == [early, late])
        #expect(
            try await store.annotations.list(app: app.id, from: Self.date("2026-03-01T10:00:00Z"), to: Self.date("2026-03-02T10:00:00Z")) == [early])
        #expect(try await store.annotations.delete(app: app.id, id: early.id))
        #expect(try await !store.annotations.delete(app: other.id, id: late.id))
        for text in ["", "   ", String(repeating: "x", count: Annotation.maximumTextLength + 1), "a\u{0}b"] {
            await #expect(throws: TallyStoreError.self) { try await store.annotations.add(app: app.id, time: Date(), text: text) }
        }
        await #expect(throws: TallyStoreError.unknownApp(AppID(rawValue: 77))) {
            try await store.annotations.add(app: AppID(rawValue: 77), time: Date(), text: "x")
        }
        // "other app" and two more make three, the bound given.
        for index in 0..<2 { _ = try await store.backend.insertAnnotation(app: other.id, time: 0, text: "\(index)", createdAt: 0, maximum: 3) }
        await #expect(throws: TallyStoreError.tooManyAnnotations(other.id)) {
            try await store.backend.insertAnnotation(app: other.id, time: 0, text: "x", createdAt: 0, maximum: 3)
        }
    }

    @Test(arguments: TestDatabase.all)
    func theWriteTokenNamesItsAppUntilRotated(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let created = try await store.apps.create(name: "Tokens")
        #expect(created.writeToken.hasPrefix("wt_") && created.writeToken != created.readToken)
        #expect(try await store.apps.app(writeToken: created.writeToken)?.id == created.app.id)
        #expect(try await store.apps.app(writeToken: created.readToken) == nil)
        #expect(try await store.apps.app(readToken: created.writeToken) == nil)
        let rotated = try await store.apps.rotateKeys(created.app.id)
        #expect(try await store.apps.app(writeToken: created.writeToken) == nil)
        #expect(try await store.apps.app(writeToken: rotated.writeToken)?.id == created.app.id)
    }
}

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
        let app = try await store.createApp(name: "Notes").app
        let other = try await store.createApp(name: "Other").app
        let late = try await store.addAnnotation(app: app.id, time: Self.date("2026-03-02T10:00:00Z"), text: "  v2.3 released \n")
        let early = try await store.addAnnotation(app: app.id.debug, time: Self.date("2026-03-01T10:00:00Z"), text: "campaign")
        try await store.addAnnotation(app: other.id, time: Self.date("2026-03-01T11:00:00Z"), text: "other app")
        #expect(late.text == "v2.3 released")
        let all = try await store.annotations(app: app.id, from: Self.date("2026-03-01T00:00:00Z"), to: Self.date("2026-03-03T00:00:00Z"))
        #expect(all == [early, late])
        #expect(try await store.annotations(app: app.id, from: Self.date("2026-03-01T10:00:00Z"), to: Self.date("2026-03-02T10:00:00Z")) == [early])
        #expect(try await store.deleteAnnotation(app: app.id, id: early.id))
        #expect(try await !store.deleteAnnotation(app: other.id, id: late.id))
        for text in ["", "   ", String(repeating: "x", count: Annotation.maximumTextLength + 1), "a\u{0}b"] {
            await #expect(throws: TallyStoreError.self) { try await store.addAnnotation(app: app.id, time: Date(), text: text) }
        }
        await #expect(throws: TallyStoreError.unknownApp(AppID(rawValue: 77))) {
            try await store.addAnnotation(app: AppID(rawValue: 77), time: Date(), text: "x")
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
        let created = try await store.createApp(name: "Tokens")
        #expect(created.writeToken.hasPrefix("wt_") && created.writeToken != created.readToken)
        #expect(try await store.app(writeToken: created.writeToken)?.id == created.app.id)
        #expect(try await store.app(writeToken: created.readToken) == nil)
        #expect(try await store.app(readToken: created.writeToken) == nil)
        let rotated = try await store.rotateKeys(created.app.id)
        #expect(try await store.app(writeToken: created.writeToken) == nil)
        #expect(try await store.app(writeToken: rotated.writeToken)?.id == created.app.id)
    }
}

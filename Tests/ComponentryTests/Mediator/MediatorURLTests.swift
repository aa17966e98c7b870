import Componentry
import Foundation
import Testing

@Suite("Mediator URL calls")
struct MediatorURLTests {
    let mediator = Mediator()

    init() throws {
        try mediator.register(CatalogTarget.self)
        try mediator.register(LenientTarget.self)
    }

    @Test func anExposedActionRunsWithItsQueryReadAsTypedValues() throws {
        let book: Book = try mediator.call(URL(string: "tally://Catalog/book?id=42&title=Walden%20Pond")!)
        #expect(book == Book(id: 42, title: "Walden Pond"))
    }

    @Test func actionsAreInternalUnlessTheyAllowURLCalls() {
        let error = #expect(throws: MediatorError.self) {
            try mediator.call(URL(string: "tally://Catalog/title?id=1")!, as: String.self)
        }
        #expect(error?.description == "Catalog/title cannot be called from a URL")
    }

    @Test func aQueryStringNeverArrivesAsAnotherType() {
        let error = #expect(throws: MediatorError.self) {
            try mediator.call(URL(string: "tally://Catalog/book?id=abc")!, as: Book.self)
        }
        #expect(error?.description == #"parameter "id": expected Int, got String"#)
    }

    @Test func parametersGivenInProcessOverrideTheURLs() throws {
        let book: Book = try mediator.call(URL(string: "tally://Catalog/book?id=1&title=Forged")!, ["title": "Walden"])
        #expect(book == Book(id: 1, title: "Walden"))
    }

    @Test func aURLWithoutTargetOrActionIsRefused() {
        for url in ["tally://Catalog", "tally:///book", "tally://Catalog/book/extra"] {
            #expect(throws: MediatorError.self) { try mediator.call(URL(string: url)!, as: Book.self) }
        }
    }

    @Test func interceptorsSeeTheOrigin() throws {
        let recording = mediator.recordCalls()
        _ = try mediator.call(URL(string: "tally://Catalog/book?id=1")!, as: Book.self)
        _ = try mediator.call("Catalog", "book", ["id": 1], as: Book.self)
        _ = try? mediator.call(URL(string: "tally://Catalog/title?id=1")!, as: String.self)  // refused, still recorded
        #expect(
            recording.calls.map(\.origin) == [
                .url(URL(string: "tally://Catalog/book?id=1")!), .inProcess, .url(URL(string: "tally://Catalog/title?id=1")!),
            ])
    }

    @Test func aURLToAnUndeclaredActionIsRefusedBeforeTheTargetsNotFoundHandler() throws {
        // In process, Lenient's handler answers any action; from a URL, none it does not expose.
        #expect(try mediator.call("Lenient", "anything") == "lenient anything")
        for url in ["tally://Lenient/anything", "tally://Lenient/known"] {
            let error = #expect(throws: MediatorError.self) { try mediator.call(URL(string: url)!, as: String.self) }
            #expect(error.map(isNotExposed) == true, "\(url)")
        }
    }

    @Test func aURLNeverReachesTheFallback() {
        let fallbacks = Counter()
        mediator.fallback = { _, _ in
            fallbacks.increment()
            return "placeholder"
        }
        for url in ["tally://Shop/page", "tally://Catalog/missing", "tally://Catalog/title?id=1"] {
            let error = #expect(throws: MediatorError.self) { try mediator.call(URL(string: url)!, as: String.self) }
            #expect(error.map(isNotExposed) == true, "\(url)")
        }
        #expect(fallbacks.count == 0)
    }

    /// A URL that misses — a typo of a registered target or action, a target that does not
    /// exist, an internal action — gets the same error, naming only what it said.
    @Test func aURLLearnsNoRegisteredName() {
        let descriptions = ["tally://Catalg/book", "tally://Nothing/book", "tally://Catalog/bok", "tally://Catalog/title"].map { url in
            (#expect(throws: MediatorError.self) { try mediator.call(URL(string: url)!, as: Book.self) })?.description
        }
        #expect(
            descriptions == [
                "Catalg/book cannot be called from a URL", "Nothing/book cannot be called from a URL",
                "Catalog/bok cannot be called from a URL", "Catalog/title cannot be called from a URL",
            ])
    }

    @Test func interceptorsSeeURLCallsOfExposedActionsOnly() throws {
        let seen = Recorder<String>()
        mediator.addInterceptor { call in
            seen.append(call.action)
            return .respond(Book(id: 0, title: "Answered"))
        }
        #expect(throws: MediatorError.self) { try mediator.call(URL(string: "tally://Catalog/title?id=1")!, as: Book.self) }
        #expect(try mediator.call(URL(string: "tally://Catalog/book?id=1")!) == Book(id: 0, title: "Answered"))
        #expect(seen.values == ["book"])
    }
}

private func isNotExposed(_ error: MediatorError) -> Bool {
    if case .notExposed = error { return true }
    return false
}

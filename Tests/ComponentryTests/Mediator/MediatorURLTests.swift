import Componentry
import Foundation
import Testing

@Suite("Mediator URL calls")
struct MediatorURLTests {
    let mediator = Mediator()

    init() throws {
        try mediator.register(CatalogTarget.self)
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
        #expect(recording.calls.map(\.origin) == [.url(URL(string: "tally://Catalog/book?id=1")!), .inProcess])
    }
}

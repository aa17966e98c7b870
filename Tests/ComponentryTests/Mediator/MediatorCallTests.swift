import Componentry
import Foundation
import Testing

@Suite("Mediator calls")
struct MediatorCallTests {
    let mediator = Mediator()

    init() throws {
        try mediator.register(CatalogTarget.self)
    }

    @Test func aCallByNameReturnsATypedResult() throws {
        let title: String = try mediator.call("Catalog", "title", ["id": 7])
        #expect(title == "Book 7")
        #expect(try mediator.call("Catalog", "book", ["id": 7, "title": "Walden"]) == Book(id: 7, title: "Walden"))
        #expect(try mediator.catalogTitle(8) == "Book 8")
    }

    @Test func aMissingTargetOrActionThrowsWithADidYouMeanHint() {
        #expect(throws: MediatorError.self) { try mediator.call("Shop", "title", as: String.self) }
        let target = #expect(throws: MediatorError.self) { try mediator.call("catalgo", "title", ["id": 1], as: String.self) }
        guard case .targetNotFound("catalgo", suggestion: "Catalog")? = target else {
            Issue.record("got \(String(describing: target))")
            return
        }
        let action = #expect(throws: MediatorError.self) { try mediator.call("Catalog", "titel", ["id": 1], as: String.self) }
        #expect(action?.description == #"target "Catalog" has no action "titel"; did you mean "title"?"#)
    }

    @Test func aBadParameterNamesItselfAndTheExpectedType() {
        let wrong = #expect(throws: MediatorError.self) { try mediator.call("Catalog", "title", ["id": "seven"], as: String.self) }
        #expect(wrong?.description == #"parameter "id": expected Int, got String"#)
        let missing = #expect(throws: MediatorError.self) { try mediator.call("Catalog", "title", as: String.self) }
        #expect(missing?.description == #"parameter "id": expected Int, got nothing"#)
    }

    @Test func parametersConvertLosslesslyOrNotAtAll() throws {
        // A string that spells an Int is one; Codable values cross between types by JSON.
        #expect(try mediator.catalogTitle(Int("12")!) == "Book 12")
        #expect(try mediator.call("Catalog", "title", ["id": "12"]) == "Book 12")
        #expect(try mediator.call("Catalog", "echo", ["value": Book(id: 1, title: "Walden")]) == BookSummary(title: "Walden"))
        #expect(try mediator.call("Catalog", "echo", ["value": #"{"title": "Walden"}"#]) == BookSummary(title: "Walden"))
        let strings: MediatorParameters = ["link": "https://example.com/a", "ids": "[1, 2]"]
        #expect(try strings.value("link", as: URL.self) == URL(string: "https://example.com/a"))
        #expect(try strings.value("ids", as: [Int].self) == [1, 2])
        // An Int never becomes a String, nor a Double an Int.
        #expect(throws: MediatorError.self) { try mediator.call("Catalog", "book", ["id": 1, "title": 5], as: Book.self) }
        #expect(throws: MediatorError.self) { try mediator.call("Catalog", "title", ["id": 1.5], as: String.self) }
    }

    @Test func aResultConvertsToTheCallersTypeOrThrows() throws {
        #expect(try mediator.call("Catalog", "book", ["id": 3, "title": "Dubliners"]) == BookSummary(title: "Dubliners"))
        let error = #expect(throws: MediatorError.self) { try mediator.call("Catalog", "title", ["id": 3], as: Int.self) }
        #expect(error?.description == "Catalog/title returned String, not Int")
    }

    @Test func anActionsOwnErrorIsWrapped() {
        let error = #expect(throws: MediatorError.self) { try mediator.call("Catalog", "buy", as: Int.self) }
        guard case .actionFailed("Catalog", "buy", let underlying)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(underlying is OutOfStock)
    }

    @Test func registrationRefusesBlankAndDuplicateNames() {
        #expect(throws: MediatorError.self) { try mediator.register(CatalogTarget.self) }
        #expect(throws: MediatorError.self) { try mediator.register(CatalogTarget.self, as: " ") }
        #expect(throws: Never.self) { try mediator.register(CatalogTarget.self, as: "Catalog2") }
        #expect(mediator.hasTarget("Catalog2"))
    }

    @MainActor
    @Test func aMainActorActionRunsSynchronouslyOnTheMainActor() throws {
        #expect(try mediator.call("Catalog", "page", ["id": 4]) == "page 4")
    }

    @Test func aMainActorActionCalledSynchronouslyElsewhereThrows() async {
        let mediator = mediator
        let error = await Task.detached {
            #expect(throws: MediatorError.self) { try mediator.call("Catalog", "page", ["id": 4], as: String.self) }
        }.value
        #expect(error?.description == "Catalog/page runs on the main actor: call it there, or with callAsync")
    }

    @Test func callAsyncRunsEveryKindOfAction() async throws {
        #expect(try await mediator.callAsync("Catalog", "page", ["id": 5]) == "page 5")
        #expect(try await mediator.callAsync("Catalog", "load", ["id": 5]) == "loaded 5")
        #expect(try await mediator.callAsync("Catalog", "title", ["id": 5]) == "Book 5")
        #expect(throws: MediatorError.self) { try mediator.call("Catalog", "load", ["id": 5], as: String.self) }
    }
}

import Componentry
import ExampleBookDetail
import ExampleBookDetailFacade
import ExampleReader
import ExampleReviewFacade
import Foundation
import Testing

// The mediator example (seed 001): the reader and book detail modules call each other
// only through the mediator. This test target links both, and deliberately not
// ExampleReview — only its facade: calls to the review module must fall back cleanly.

@MainActor
@Suite("Modules through the mediator")
struct ModulesThroughTheMediatorTests {
    let mediator = Mediator()

    init() throws {
        try ReaderModule.register(in: mediator)
        try BookDetailModule.register(in: mediator)
    }

    @Test func theReaderGetsABooksDetailFromTheBookDetailModule() throws {
        let reader = ReaderScreen(bookID: 1, mediator: mediator)
        #expect(reader.title == "Walden")
        #expect(try reader.detailLine() == "Walden: no reviews")  // the review module is not linked
    }

    @Test func theBookDetailModuleOpensTheReader() throws {
        let recording = mediator.recordCalls()
        #expect(try mediator.startReading(2) == "reading Dubliners")
        #expect(
            recording.calls.map { "\($0.target)/\($0.action)" } == [
                "BookDetail/startReading", "Reader/open", "BookDetail/detail", "Review/count",
            ])
    }

    @Test func aCallToTheUnlinkedReviewModuleFallsBackCleanly() async throws {
        let reader = ReaderScreen(bookID: 1, mediator: mediator)
        #expect(await reader.reviewLines() == ["Reviews are not available."])

        let error = #expect(throws: MediatorError.self) { try mediator.reviewCount(1) }
        #expect(error?.description == #"no target "Review""#)

        // With a global fallback, the book detail module shows a count after all.
        mediator.fallback = { call, error in
            guard call.action == "count" else { throw error }
            return 0
        }
        #expect(try reader.detailLine() == "Walden: 0 reviews")
    }

    @Test func aStubStandsInForTheUnlinkedModuleWithinAScope() async throws {
        try await mediator.withTarget(StubReviews.self, as: "Review") { () async throws in
            let reader = ReaderScreen(bookID: 2, mediator: mediator)
            #expect(try reader.detailLine() == "Dubliners: 3 reviews")
            #expect(await reader.reviewLines() == ["Dubliners: Stub review."])
        }
        #expect(!mediator.hasTarget("Review"))
    }

    @Test func urlsReachOnlyWhatModulesExpose() throws {
        #expect(try mediator.call(URL(string: "tally://Reader/open?bookID=1")!) == "reading Walden")
        #expect(throws: MediatorError.self) {
            try mediator.call(URL(string: "tally://BookDetail/startReading?bookID=1")!, as: String.self)
        }
        let typo = #expect(throws: MediatorError.self) {
            try mediator.call(URL(string: "tally://BookDetial/detail?bookID=1")!, as: String.self)
        }
        #expect(typo?.description == "BookDetial/detail cannot be called from a URL")  // no "did you mean"
    }
}

/// Stands in for the review module, which this test target does not link. It sends its
/// own types, which the reader reads as its own.
final class StubReviews: MediatorTarget {
    static let name = "Review"

    struct Item: Encodable, Sendable {
        let bookTitle: String
        let text: String
    }

    init(mediator: Mediator) {}

    static func registerActions(in table: inout MediatorActionTable<StubReviews>) {
        table.action("count") { _, _ in 3 }
        table.action("reviews") { _, _ async in [Item(bookTitle: "Dubliners", text: "Stub review.")] }
    }
}

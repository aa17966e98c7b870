import Componentry
import ExampleBookDetail
import ExampleBookDetailFacade
import ExampleReader
import ExampleReaderFacade
import ExampleReview
import ExampleReviewFacade
import Foundation
import Testing

// The mediator example (seed 001) as an app links it: all three modules, registered in one
// mediator, reached only through their facades — no target or action name here.

@MainActor
@Suite("All example modules through the mediator")
struct AllModulesThroughTheMediatorTests {
    let mediator = Mediator()

    init() throws {
        try ReaderModule.register(in: mediator)
        try BookDetailModule.register(in: mediator)
        try ReviewModule.register(in: mediator)
    }

    @Test func theReviewModuleAnswersThroughItsFacade() async throws {
        #expect(try mediator.reviewCount(1) == 2)
        #expect(try mediator.reviewCount(3) == 0)
        #expect(try await mediator.reviews(2) == [Review(bookTitle: "Dubliners", text: "Dublin, 1904.")])
    }

    @Test func theReviewModuleGetsTitlesFromTheBookDetailModule() async throws {
        let recording = mediator.recordCalls()
        _ = try await mediator.reviews(1)
        #expect(recording.calls.map { "\($0.target)/\($0.action)" } == ["Review/reviews", "BookDetail/title"])

        // An unknown book: the book detail module's failure reaches the caller.
        let error = await #expect(throws: MediatorError.self) { try await mediator.reviews(9) }
        guard case .actionFailed(target: "BookDetail", action: "title", _)? = error else {
            Issue.record("expected BookDetail/title to fail, got \(String(describing: error))")
            return
        }
    }

    @Test func theReaderShowsTheReviewsOfTheLinkedModule() async throws {
        let reader = ReaderScreen(bookID: 1, mediator: mediator)
        #expect(try reader.detailLine() == "Walden: 2 reviews")
        #expect(await reader.reviewLines() == ["Walden: Simple living.", "Walden: Too many beans."])
    }

    @Test func theBookDetailModuleCountsReviewsAndOpensTheReader() throws {
        #expect(try mediator.bookDetail(2) == BookDetail(bookID: 2, title: "Dubliners", reviewCount: 1))
        #expect(try mediator.startReading(1) == "reading Walden")
        #expect(try mediator.openReader(2) == "reading Dubliners")
    }

    @Test func urlsReachOnlyTheActionsTheModulesExpose() throws {
        #expect(try mediator.call(URL(string: "tally://BookDetail/detail?bookID=1")!) == BookDetail(bookID: 1, title: "Walden", reviewCount: 2))
        for url in ["tally://Review/count?bookID=1", "tally://Review/reviews?bookID=1", "tally://BookDetail/title?bookID=1"] {
            let error = #expect(throws: MediatorError.self) { try mediator.call(URL(string: url)!, as: Int.self) }
            guard case .notExposed? = error else {
                Issue.record("\(url): expected notExposed, got \(String(describing: error))")
                continue
            }
        }
    }
}

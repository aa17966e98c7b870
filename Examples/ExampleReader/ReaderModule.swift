public import Componentry
import ExampleBookDetailFacade
import ExampleReviewFacade

// The reader module of the mediator example (seed 001): it opens books, and from a book
// its detail and its reviews. It imports Componentry and the facades of the book detail
// and review modules, which it reaches through the mediator without importing them;
// either may be missing. Callers use its facade, ExampleReaderFacade.

/// The reader module's entry point: the app registers it once.
public enum ReaderModule {
    /// Registers the module's target, `"Reader"`, in `mediator`.
    public static func register(in mediator: Mediator) throws(MediatorError) {
        try mediator.register(ReaderTarget.self)
    }
}

/// The reader, open on a book.
@MainActor
public final class ReaderScreen {
    /// The book open.
    public let bookID: Int
    /// The book's title, or a placeholder when the book detail module is missing.
    public let title: String
    private let mediator: Mediator

    /// Opens the reader on `bookID`.
    public init(bookID: Int, mediator: Mediator) {
        self.bookID = bookID
        self.mediator = mediator
        title = (try? mediator.bookDetail(bookID).title) ?? "Book \(bookID)"
    }

    /// What the reader shows about the book: its title and review count, from the book
    /// detail module.
    public func detailLine() throws(MediatorError) -> String {
        let detail = try mediator.bookDetail(bookID)
        return "\(detail.title): " + (detail.reviewCount.map { "\($0) reviews" } ?? "no reviews")
    }

    /// The book's reviews, from the review module, or a line saying they are unavailable
    /// when it is not linked.
    public func reviewLines() async -> [String] {
        do {
            return try await mediator.reviews(bookID).map { "\($0.bookTitle): \($0.text)" }
        } catch .targetNotFound {
            return ["Reviews are not available."]
        } catch {
            return ["Reviews failed: \(error)"]
        }
    }
}

/// The module's action, as its facade (`Mediator+Reader.swift`) calls it: `open`, on the
/// main actor, also callable from a URL (`tally://Reader/open?bookID=1`).
final class ReaderTarget: MediatorTarget {
    static let name = "Reader"
    let mediator: Mediator

    init(mediator: Mediator) {
        self.mediator = mediator
    }

    static func registerActions(in table: inout MediatorActionTable<ReaderTarget>) {
        table.mainActorAction("open", allowsURLCalls: true) { target, parameters in
            let screen = ReaderScreen(bookID: try parameters.value("bookID"), mediator: target.mediator)
            return "reading \(screen.title)"
        }
    }
}

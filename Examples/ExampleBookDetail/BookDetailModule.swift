public import Componentry
import ExampleBookDetailFacade
import ExampleReaderFacade
import ExampleReviewFacade

// The book detail module of the mediator example (seed 001): a book's title and detail,
// and a way to start reading it. It imports Componentry and facades only — its own, for
// the type it sends, and those of the reader and review modules, which it reaches through
// the mediator without importing them. Callers use its facade, ExampleBookDetailFacade.

/// The book detail module's entry point: the app registers it once.
public enum BookDetailModule {
    /// Registers the module's target, `"BookDetail"`, in `mediator`.
    public static func register(in mediator: Mediator) throws(MediatorError) {
        try mediator.register(BookDetailTarget.self)
    }
}

/// What this module knows about books.
enum Catalog {
    struct UnknownBook: Error {
        let bookID: Int
    }

    static func title(of bookID: Int) throws -> String {
        guard let title = [1: "Walden", 2: "Dubliners"][bookID] else { throw UnknownBook(bookID: bookID) }
        return title
    }
}

/// The module's actions, as its facade (`Mediator+BookDetail.swift`) calls them: `title`,
/// `detail` (also callable from a URL), and `startReading`, which opens the reader on the
/// main actor.
final class BookDetailTarget: MediatorTarget {
    static let name = "BookDetail"
    let mediator: Mediator

    init(mediator: Mediator) {
        self.mediator = mediator
    }

    static func registerActions(in table: inout MediatorActionTable<BookDetailTarget>) {
        table.action("title") { _, parameters in
            try Catalog.title(of: parameters.value("bookID"))
        }
        table.action("detail", allowsURLCalls: true) { target, parameters in
            let bookID = try parameters.value("bookID", as: Int.self)
            return BookDetail(
                bookID: bookID, title: try Catalog.title(of: bookID),
                reviewCount: try? target.mediator.reviewCount(bookID)
            )
        }
        table.mainActorAction("startReading") { target, parameters in
            try target.mediator.openReader(parameters.value("bookID"))
        }
    }
}

public import Componentry
import ExampleBookDetailFacade
import ExampleReviewFacade

// The review module of the mediator example (seed 001): review counts and lists. It
// imports Componentry and facades only — its own, for the type it sends, and the book
// detail module's, whose titles it gets through the mediator. Callers use its facade,
// ExampleReviewFacade.

/// The review module's entry point: the app registers it once.
public enum ReviewModule {
    /// Registers the module's target, `"Review"`, in `mediator`; it is cached, as it keeps
    /// the reviews.
    public static func register(in mediator: Mediator) throws(MediatorError) {
        try mediator.register(ReviewTarget.self, caching: .cached)
    }
}

/// The module's actions, as its facade (`Mediator+Review.swift`) calls them: `count`
/// (synchronous) and `reviews` (asynchronous, as if loaded from a server).
final class ReviewTarget: MediatorTarget {
    static let name = "Review"
    let mediator: Mediator
    let texts = [1: ["Simple living.", "Too many beans."], 2: ["Dublin, 1904."]]

    init(mediator: Mediator) {
        self.mediator = mediator
    }

    static func registerActions(in table: inout MediatorActionTable<ReviewTarget>) {
        table.action("count") { target, parameters in
            try target.texts[parameters.value("bookID", as: Int.self)]?.count ?? 0
        }
        table.action("reviews") { target, parameters async throws in
            let bookID = try parameters.value("bookID", as: Int.self)
            let title = try target.mediator.bookTitle(bookID)
            return (target.texts[bookID] ?? []).map { Review(bookTitle: title, text: $0) }
        }
    }
}

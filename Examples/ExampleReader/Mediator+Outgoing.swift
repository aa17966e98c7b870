import Componentry

// The facades this module calls, declared on the caller's side, with the types it
// expects back: `Decodable` mirrors of what the other modules send, converted through
// JSON, so no module shares a type with another. Nothing here imports the modules called.

/// A book's detail, as the reader reads it.
struct BookDetailSummary: Decodable, Sendable {
    let title: String
    let reviewCount: Int?
}

/// A review, as the reader reads it.
struct ReviewSummary: Decodable, Sendable {
    let bookTitle: String
    let text: String
}

extension Mediator {
    /// The book's detail (the book detail module).
    func bookDetail(_ bookID: Int) throws(MediatorError) -> BookDetailSummary {
        try call("BookDetail", "detail", ["bookID": bookID])
    }

    /// The book's reviews (the review module), loaded asynchronously.
    func reviews(_ bookID: Int) async throws(MediatorError) -> [ReviewSummary] {
        try await callAsync("Review", "reviews", ["bookID": bookID])
    }
}

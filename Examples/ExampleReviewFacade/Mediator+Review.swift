public import Componentry

// The review module's facade (seed 001's category): typed calls of its target,
// `"Review"`, for modules that link this small target and not the module itself. It
// depends on Componentry only.

/// A review, as the review module sends it.
public struct Review: Codable, Sendable, Equatable {
    /// The title of the book reviewed.
    public let bookTitle: String
    /// What the reviewer wrote.
    public let text: String

    /// A review of `bookTitle`.
    public init(bookTitle: String, text: String) {
        self.bookTitle = bookTitle
        self.text = text
    }
}

extension Mediator {
    /// How many reviews the book has.
    public func reviewCount(_ bookID: Int) throws(MediatorError) -> Int {
        try call("Review", "count", ["bookID": bookID])
    }

    /// The book's reviews, loaded asynchronously.
    public func reviews(_ bookID: Int) async throws(MediatorError) -> [Review] {
        try await callAsync("Review", "reviews", ["bookID": bookID])
    }
}

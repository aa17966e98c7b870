public import Componentry

// The book detail module's facade (seed 001's category): typed calls of its target,
// `"BookDetail"`, for modules that link this small target and not the module itself.
// It depends on Componentry only.

/// A book, as the book detail module sends it.
public struct BookDetail: Codable, Sendable, Equatable {
    /// The book's id.
    public let bookID: Int
    /// The book's title.
    public let title: String
    /// How many reviews the book has; `nil` when reviews are not available (the review
    /// module may not be linked).
    public let reviewCount: Int?

    /// A book's detail.
    public init(bookID: Int, title: String, reviewCount: Int?) {
        self.bookID = bookID
        self.title = title
        self.reviewCount = reviewCount
    }
}

extension Mediator {
    /// The book's title.
    public func bookTitle(_ bookID: Int) throws(MediatorError) -> String {
        try call("BookDetail", "title", ["bookID": bookID])
    }

    /// The book's detail; URLs may call it too (`tally://BookDetail/detail?bookID=1`).
    public func bookDetail(_ bookID: Int) throws(MediatorError) -> BookDetail {
        try call("BookDetail", "detail", ["bookID": bookID])
    }

    /// Opens the reader on the book and returns the reader's description of it.
    @MainActor
    public func startReading(_ bookID: Int) throws(MediatorError) -> String {
        try call("BookDetail", "startReading", ["bookID": bookID])
    }
}

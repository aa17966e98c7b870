import Componentry

// The facades this module calls, declared on the caller's side. Nothing here imports the
// modules called.

extension Mediator {
    /// The book's title (the book detail module).
    func bookTitle(_ bookID: Int) throws(MediatorError) -> String {
        try call("BookDetail", "title", ["bookID": bookID])
    }
}

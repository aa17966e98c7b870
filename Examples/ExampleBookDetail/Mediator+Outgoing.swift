import Componentry

// The facades this module calls, declared on the caller's side: typed arguments and
// results, names and dictionaries kept here. Nothing here imports the modules called.

extension Mediator {
    /// How many reviews the book has (the review module).
    func reviewCount(_ bookID: Int) throws(MediatorError) -> Int {
        try call("Review", "count", ["bookID": bookID])
    }

    /// Opens the reader on the book and returns the reader's description of it.
    @MainActor
    func openReader(_ bookID: Int) throws(MediatorError) -> String {
        try call("Reader", "open", ["bookID": bookID])
    }
}

public import Componentry

// The reader module's facade (seed 001's category): typed calls of its target,
// `"Reader"`, for modules that link this small target and not the module itself. It
// depends on Componentry only.

extension Mediator {
    /// Opens the reader on the book and returns its description of what it shows; URLs may
    /// call it too (`tally://Reader/open?bookID=1`).
    @MainActor
    public func openReader(_ bookID: Int) throws(MediatorError) -> String {
        try call("Reader", "open", ["bookID": bookID])
    }
}

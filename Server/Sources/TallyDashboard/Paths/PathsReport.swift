public import TallyStore

/// The paths sheet's counts as the page holds them: the store's answer, or why there is none.
public enum PathsReport: Hashable, Sendable {
    /// The store's counts.
    case counted(Paths)
    /// What the store refused (a filter on a property the app does not name, say), as
    /// people read it.
    case failed(String)
}

/// Where a ``ListModule`` is in loading its content — data, not flags, so a renderer
/// switches over it.
public enum ListModuleState: Sendable {
    /// Nothing requested yet.
    case idle
    /// A request for this page is in flight; index 0 is a refresh.
    case loading(ListPage)
    /// The last request succeeded and there is something to show.
    case loaded
    /// The last request succeeded with nothing to show: the empty-state component shows.
    case empty
    /// The last request failed; what was shown before stays.
    case failed(any Error)

    /// Whether a request is in flight.
    public var isLoading: Bool {
        if case .loading = self { true } else { false }
    }
}

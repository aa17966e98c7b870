public import TallyStore

/// A segment saved by name: a filter the filter bar applies in one click.
public struct SavedSegment: Hashable, Sendable {
    /// The name people chose for it.
    public var name: String
    /// Its conditions.
    public var filter: SegmentFilter

    /// A segment named `name` of `filter`.
    public init(name: String, filter: SegmentFilter) {
        self.name = name
        self.filter = filter
    }
}

/// Where the dashboard finds an app's saved segments, which the filter bar and the filter
/// sheet list.
///
/// The store does not keep saved segments yet; until a source is given to
/// ``DashboardServer``, a page has none and shows no list. A store that keeps them conforms
/// and is passed as `savedSegments:`.
public protocol SavedSegmentSource: Sendable {
    /// The segments saved for `app` that `user` may apply, in the order to list them.
    func savedSegments(app: AppID, user: DashboardUserID) async throws -> [SavedSegment]
}

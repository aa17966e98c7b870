/// A backend's saved segments (``SavedSegment``): per app, a name and a filter's text.
protocol SavedSegmentBackend: Sendable {
    /// The segments of `app`, ordered by name in code point order.
    func savedSegments(app: AppID) async throws -> [(name: String, filter: String, createdAt: Int64)]

    /// Stores `filter` as `app`'s segment `name`, or replaces the filter of the one of that
    /// name, keeping its creation time; returns the creation time stored. Throws
    /// ``TallyStoreError/unknownApp(_:)``, or ``TallyStoreError/tooManySavedSegments(_:)``
    /// when `app` has `maximum` segments of other names, checked and written atomically.
    func saveSegment(app: AppID, name: String, filter: String, createdAt: Int64, maximum: Int) async throws -> Int64

    /// Deletes `app`'s segment `name`; returns whether there was one.
    func deleteSegment(app: AppID, name: String) async throws -> Bool
}

/// A backend's deletion of raw events past their app's retention (see ``RawRetention``).
protocol PruneBackend: Sendable {
    /// Deletes the raw events of each app of `horizons`, and of its ``AppID/debug`` id, with a
    /// timestamp before the app's horizon (milliseconds since 1970), after recording the
    /// horizon as the app's `raw_kept_since` (never moved back). Rollups are left alone.
    /// Each write holds the database's write lock about `batchTarget` at most.
    func pruneRawEvents(horizons: [AppID: Int64], batchTarget: Duration) async throws -> RawEventPruning
}

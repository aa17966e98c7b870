/// A backend's reads for metrics: rollups in one consistent read, and event properties.
protocol MetricsBackend: Sendable {
    /// Runs `body` over the rollups of `app` in one consistent read, with the app; throws
    /// ``TallyStoreError/unknownApp(_:)``.
    ///
    /// - Parameters:
    ///   - needs: The rows `body` reads, given the app: a backend that cannot read rows while
    ///     `body` runs fetches them first; reading others throws ``RollupNeeds/Unfetched``.
    ///   - body: The computation.
    func readRollups<T: Sendable>(
        app: AppID, needs: @escaping @Sendable (App) throws -> RollupNeeds, body: @escaping @Sendable (RollupReader, App) throws -> T
    ) async throws -> T

    /// The numeric values of `property` on `app`'s events named `event` in `milliseconds`:
    /// their count, sum and maximum.
    func numericProperty(
        app: AppID, event: String, property: String, in milliseconds: Range<Int64>
    ) async throws -> (count: Int, sum: Double, maximum: Double?)

    /// How many of `app`'s events named `event` in `milliseconds` there are, and how many leave
    /// `property` empty (absent, `null`, or only white space).
    func emptyProperty(app: AppID, event: String, property: String, in milliseconds: Range<Int64>) async throws -> EmptyShare

    /// The values of `property` on `app`'s events named `event` in `milliseconds`, as text
    /// (see ``Breakdown``; `nil` when absent or not a scalar), per user, with the events that have it.
    func propertyValues(
        app: AppID, event: String, property: String, in milliseconds: Range<Int64>
    ) async throws -> [(value: String?, user: String, events: Int)]
}

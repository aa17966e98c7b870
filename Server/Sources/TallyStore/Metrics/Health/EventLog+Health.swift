public import Foundation

extension EventLog {
    /// The longest reason code ``recordIngest(app:at:accepted:duplicates:rejectedByReason:droppedByReason:)`` accepts, in UTF-8 bytes.
    public static let maximumHealthReasonBytes = 64
    /// The largest single count it accepts.
    public static let maximumHealthCount = 1_000_000_000

    /// Records what became of one ingest request's events, for ``MetricStore/dataHealth(_:)``.
    ///
    /// Returns at once: the counts are added in memory, per app, 15-minute bucket of `at` and
    /// reason, and written by the next group commit (see ``insert(_:app:)``), in the
    /// transaction that stores the batches waiting then, or in one of their own when none is.
    /// So recording costs ingest no transaction and no disk sync of its own; counts recorded
    /// in the last milliseconds before a crash may be lost (events never are).
    ///
    /// - Parameters:
    ///   - app: The app the request was for.
    ///   - at: When the server received the request.
    ///   - accepted: Events stored (``InsertResult/accepted``).
    ///   - duplicates: Events not stored as duplicates (``InsertResult/duplicates``).
    ///   - rejectedByReason: Events refused, by a short stable reason code.
    ///   - droppedByReason: Events the SDK reported dropping, by its reason.
    /// - Throws: ``TallyStoreError/invalidHealthCount(reason:count:)`` for a count below 0 or
    ///   above ``maximumHealthCount``, or a reason code that is empty or longer than
    ///   ``maximumHealthReasonBytes``; nothing is recorded then.
    public func recordIngest(
        app: AppID, at: Date, accepted: Int, duplicates: Int,
        rejectedByReason: [String: Int] = [:], droppedByReason: [String: Int] = [:]
    ) async throws {
        let bucket = Bucket.containing(milliseconds: at.unixMilliseconds)
        var counts = HealthCounts()
        let entries =
            [(HealthCounts.Outcome.accepted, "", accepted), (.duplicate, "", duplicates)]
            + rejectedByReason.map { (.rejected, $0.key, $0.value) } + droppedByReason.map { (.dropped, $0.key, $0.value) }
        for (outcome, reason, count) in entries {
            guard (0...Self.maximumHealthCount).contains(count),
                outcome == .accepted || outcome == .duplicate || (1...Self.maximumHealthReasonBytes).contains(reason.utf8.count)
            else { throw TallyStoreError.invalidHealthCount(reason: reason, count: count) }
            counts.add(count, .init(app: app, bucket: bucket, outcome: outcome, reason: reason))
        }
        backend.record(counts)
    }

}

extension MetricStore {
    /// The ingest outcomes of the scope's days: see ``DataHealth``. The scope's filter does
    /// not apply: outcomes are counted per request, not per event property.
    ///
    /// Includes every count whose ``EventLog/recordIngest(app:at:accepted:duplicates:rejectedByReason:droppedByReason:)``
    /// returned before this call: if some are not written yet, this call waits for the group
    /// commit that writes them.
    public func dataHealth(_ scope: ReadScope) async throws -> DataHealth {
        let (milliseconds, calendar) = try await milliseconds(of: scope)
        let app = scope.app
        try await backend.flushHealthCounts(app: app)
        var health = DataHealth(
            from: scope.days.lowerBound.description, to: scope.days.upperBound.description, timeZone: calendar.identifier, accepted: 0, duplicates: 0,
            rejected: [:], dropped: [:])
        for (outcome, reason, count) in try await backend.healthCounts(
            app: app, in: milliseconds.lowerBound / Bucket.milliseconds..<milliseconds.upperBound / Bucket.milliseconds)
        {
            switch outcome {
            case .accepted: health.accepted += count
            case .duplicate: health.duplicates += count
            case .rejected: health.rejected[reason, default: 0] += count
            case .dropped: health.dropped[reason, default: 0] += count
            case .ignoredPurchase: health.ignoredPurchases[reason, default: 0] += count
            }
        }
        return health
    }
}

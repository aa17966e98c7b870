public import Foundation
import GRDB

extension EventStore {
    /// The longest reason code ``recordIngest(app:at:accepted:duplicates:rejectedByReason:droppedByReason:)`` accepts, in UTF-8 bytes.
    public static let maximumHealthReasonBytes = 64
    /// The largest single count it accepts.
    public static let maximumHealthCount = 1_000_000_000

    /// Records what became of one ingest request's events, for ``dataHealth(app:date:timeZone:)``.
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
        let entries = [(HealthCounts.Outcome.accepted, "", accepted), (.duplicate, "", duplicates)]
            + rejectedByReason.map { (.rejected, $0.key, $0.value) } + droppedByReason.map { (.dropped, $0.key, $0.value) }
        for (outcome, reason, count) in entries {
            guard (0...Self.maximumHealthCount).contains(count),
                  outcome == .accepted || outcome == .duplicate || (1...Self.maximumHealthReasonBytes).contains(reason.utf8.count)
            else { throw TallyStoreError.invalidHealthCount(reason: reason, count: count) }
            counts.add(count, .init(app: app, bucket: bucket, outcome: outcome, reason: reason))
        }
        groupCommit.record(counts)
    }

    /// The ingest outcomes of a day: see ``DataHealth``.
    ///
    /// Includes every count whose ``recordIngest(app:at:accepted:duplicates:rejectedByReason:droppedByReason:)``
    /// returned before this call: if some are not written yet, this call waits for the group
    /// commit that writes them.
    ///
    /// - Throws: The errors of ``metrics(app:date:timeZone:)``.
    public func dataHealth(app: AppID, date: String, timeZone: String? = nil) async throws -> DataHealth {
        // An empty batch is a barrier: its transaction writes every count recorded before it.
        if groupCommit.holdsHealthCounts { _ = try await groupCommit.insert([], app: app) }
        return try await readDay(app: app, date: date, timeZone: timeZone) { db, day, calendar in
            var health = DataHealth(date: date, timeZone: calendar.identifier, accepted: 0, duplicates: 0, rejected: [:], dropped: [:])
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: """
                    SELECT outcome, reason, sum(count) FROM ingest_health
                    WHERE app_id = ? AND bucket >= ? AND bucket < ? GROUP BY outcome, reason
                    """),
                arguments: [app.rawValue, day.lowerBound / Bucket.milliseconds, day.upperBound / Bucket.milliseconds])
            while let row = try rows.next() {
                let count: Int = row[2]
                switch HealthCounts.Outcome(rawValue: row[0]) {
                case .accepted: health.accepted += count
                case .duplicate: health.duplicates += count
                case .rejected: health.rejected[row[1], default: 0] += count
                case .dropped: health.dropped[row[1], default: 0] += count
                case nil: break
                }
            }
            return health
        }
    }
}

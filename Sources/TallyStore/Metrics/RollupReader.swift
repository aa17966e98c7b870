import GRDB

/// The queries metrics are computed from: each reads the rollups of one app over a range
/// of 15-minute buckets (see ``Bucket``) inside a read transaction.
struct RollupReader {
    let db: Database
    let app: AppID

    /// A window with at least this many whole UTC days reads their users from `user_chunk`
    /// (one row per user per 64 days) rather than `user_day` (one row per user per day).
    static let minimumChunkDays: Int64 = 4

    /// The sum of `count` per `column` value in `table` (`name_bucket` or `screen_bucket`).
    func counts(_ table: String, by column: String, in buckets: Range<Int64>) throws -> [String: Int] {
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: """
                SELECT \(column), sum(count) FROM \(table) WHERE app_id = ? AND bucket >= ? AND bucket < ? GROUP BY \(column)
                """),
            arguments: [app.rawValue, buckets.lowerBound, buckets.upperBound])
        var counts: [String: Int] = [:]
        while let row = try rows.next() { counts[row[0]] = row[1] }
        return counts
    }

    /// Event counts per bucket and name, ordered by bucket.
    func nameCounts(in buckets: Range<Int64>) throws -> RowCursor {
        try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT bucket, name, count FROM name_bucket WHERE app_id = ? AND bucket >= ? AND bucket < ?"),
            arguments: [app.rawValue, buckets.lowerBound, buckets.upperBound])
    }

    /// Users whose first event ever is in `buckets`.
    func newUsers(in buckets: Range<Int64>) throws -> Int {
        try Int.fetchOne(
            db.cachedStatement(sql: "SELECT count(*) FROM app_user WHERE app_id = ? AND first_seen >= ? AND first_seen < ?"),
            arguments: [app.rawValue, buckets.lowerBound * Bucket.milliseconds, buckets.upperBound * Bucket.milliseconds]) ?? 0
    }

    /// Per-user statistics and versions over `buckets`, from `user_name_bucket`.
    func userActivity(in buckets: Range<Int64>) throws -> (perUser: [String: PerUserStats], versions: [String: Int]) {
        struct NameUser: Hashable {
            var name: String
            var user: Int64
        }
        var counts: [NameUser: Int] = [:]
        var lastEvents: [Int64: (timestamp: Int64, version: String)] = [:]
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: """
                SELECT user_key, name, count, last_timestamp, last_version FROM user_name_bucket
                WHERE app_id = ? AND bucket >= ? AND bucket < ?
                """),
            arguments: [app.rawValue, buckets.lowerBound, buckets.upperBound])
        while let row = try rows.next() {
            let user: Int64 = row[0]
            counts[NameUser(name: row[1], user: user), default: 0] += row[2] as Int
            let last: (timestamp: Int64, version: String) = (row[3], row[4])
            if let current = lastEvents[user], current >= last { continue }
            lastEvents[user] = last
        }
        var totals: [String: (events: Int, users: Int, maximum: Int)] = [:]
        for (key, count) in counts {
            let total = totals[key.name, default: (0, 0, 0)]
            totals[key.name] = (total.events + count, total.users + 1, max(total.maximum, count))
        }
        return (
            totals.mapValues { PerUserStats(average: Double($0.events) / Double($0.users), maximum: $0.maximum) },
            lastEvents.values.reduce(into: [:]) { versions, last in versions[last.version, default: 0] += 1 }
        )
    }

    /// The keys of the users with an event in `buckets`.
    ///
    /// Whole UTC days inside the window come from `user_chunk` when there are at least
    /// ``minimumChunkDays`` of them; the rest, and the partial UTC days at the edges, from `user_day`.
    func activeUsers(in buckets: Range<Int64>) throws -> Set<Int64> {
        var users = Set<Int64>()
        let firstWholeDay = -Bucket.floorDivide(-buckets.lowerBound, Bucket.perDay)
        let endWholeDay = Bucket.floorDivide(buckets.upperBound, Bucket.perDay)
        if endWholeDay - firstWholeDay >= Self.minimumChunkDays {
            try addUsers(inDayBuckets: buckets.lowerBound..<firstWholeDay * Bucket.perDay, to: &users)
            try addUsers(inDays: firstWholeDay..<endWholeDay, to: &users)
            try addUsers(inDayBuckets: endWholeDay * Bucket.perDay..<buckets.upperBound, to: &users)
        } else {
            try addUsers(inDayBuckets: buckets, to: &users)
        }
        return users
    }

    private func addUsers(inDayBuckets buckets: Range<Int64>, to users: inout Set<Int64>) throws {
        try forEachPeriod(of: Bucket.perDay, in: buckets) { day, slots in
            try addUsers(
                sql: """
                    SELECT user_key FROM user_day
                    WHERE app_id = ? AND day = ? AND ((low_buckets & ?) != 0 OR (high_buckets & ?) != 0)
                    """,
                arguments: [app.rawValue, day, Self.mask(slots, within: 0..<48), Self.mask(slots, within: 48..<96)],
                to: &users)
        }
    }

    private func addUsers(inDays days: Range<Int64>, to users: inout Set<Int64>) throws {
        try forEachPeriod(of: Bucket.daysPerChunk, in: days) { chunk, days in
            try addUsers(
                sql: "SELECT user_key FROM user_chunk WHERE app_id = ? AND chunk = ? AND (days & ?) != 0",
                arguments: [app.rawValue, chunk, Self.mask(days, within: 0..<64)],
                to: &users)
        }
    }

    private func addUsers(sql: String, arguments: StatementArguments, to users: inout Set<Int64>) throws {
        let keys = try Int64.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
        while let key = try keys.next() { users.insert(key) }
    }

    /// Calls `body` with each period (UTC day, chunk) of `length` units that `units` touches,
    /// and the units of the period it covers, counted from the start of the period.
    private func forEachPeriod(
        of length: Int64, in units: Range<Int64>, _ body: (Int64, Range<Int64>) throws -> Void
    ) throws {
        guard !units.isEmpty else { return }
        for period in Bucket.floorDivide(units.lowerBound, length)...Bucket.floorDivide(units.upperBound - 1, length) {
            let start = period * length
            try body(period, max(units.lowerBound - start, 0)..<min(units.upperBound - start, length))
        }
    }

    /// The bitmap of `bits` that fall in `field`, with bit `field.lowerBound` as bit 0.
    private static func mask(_ bits: Range<Int64>, within field: Range<Int64>) -> Int64 {
        let clamped = bits.clamped(to: field)
        return ((1 << Int64(clamped.count)) - 1) << (clamped.lowerBound - field.lowerBound)
    }
}

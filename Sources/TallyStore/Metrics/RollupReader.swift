import GRDB

/// The queries metrics are computed from: each reads the rollups of one app over a range
/// of 15-minute buckets (see ``Bucket``) inside a read transaction.
struct RollupReader {
    let db: Database
    let app: AppID

    /// A window with at least this many whole UTC days reads their users from `user_chunk`
    /// (one row per user per 64 days) rather than `user_day` (one row per user per day).
    static let minimumChunkDays: Int64 = 4

    /// Events per name over `buckets`, from `name_bucket`.
    func eventCounts(in buckets: Range<Int64>) throws -> [String: Int] {
        try counts(
            sql: """
                SELECT (SELECT text FROM label WHERE id = name_id), sum(count) FROM name_bucket
                WHERE app_id = ? AND bucket >= ? AND bucket < ? GROUP BY name_id
                """,
            in: buckets)
    }

    /// `screen_view` events per screen over `buckets`, from `screen_bucket`.
    func screenCounts(in buckets: Range<Int64>) throws -> [String: Int] {
        try counts(
            sql: "SELECT screen, sum(count) FROM screen_bucket WHERE app_id = ? AND bucket >= ? AND bucket < ? GROUP BY screen",
            in: buckets)
    }

    private func counts(sql: String, in buckets: Range<Int64>) throws -> [String: Int] {
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: sql), arguments: [app.rawValue, buckets.lowerBound, buckets.upperBound])
        var counts: [String: Int] = [:]
        while let row = try rows.next() { counts[row[0]] = row[1] }
        return counts
    }

    /// Event counts per bucket and name (a `label` id), ordered by bucket.
    func nameCounts(in buckets: Range<Int64>) throws -> RowCursor {
        try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT bucket, name_id, count FROM name_bucket WHERE app_id = ? AND bucket >= ? AND bucket < ?"),
            arguments: [app.rawValue, buckets.lowerBound, buckets.upperBound])
    }

    /// The text of the `label` with id `id`.
    func label(_ id: Int64) throws -> String {
        try String.fetchOne(db.cachedStatement(sql: "SELECT text FROM label WHERE id = ?"), arguments: [id]) ?? ""
    }

    /// Users whose first event ever is in `buckets`.
    func newUsers(in buckets: Range<Int64>) throws -> Int {
        try Int.fetchOne(
            db.cachedStatement(sql: "SELECT count(*) FROM app_user WHERE app_id = ? AND first_seen >= ? AND first_seen < ?"),
            arguments: [app.rawValue, buckets.lowerBound * Bucket.milliseconds, buckets.upperBound * Bucket.milliseconds]) ?? 0
    }

    /// Per-user statistics and versions over `buckets`, from `user_name_bucket`.
    ///
    /// The hot loop of day metrics (one row per user, name and active bucket: ~9 per daily
    /// user). Every column is an integer read by index. Rows come ordered by bucket, then
    /// user, so a user's rows of one bucket are consecutive: they are gathered in a reused
    /// ``UserActivity`` and merged into the user's total with one dictionary access per run
    /// instead of several per row. Label texts are looked up only for the few distinct
    /// names and versions at the end, and for the rare version tie (two last events at the
    /// same millisecond).
    func userActivity(in buckets: Range<Int64>) throws -> (perUser: [String: PerUserStats], versions: [String: Int]) {
        var labels: [Int64: String] = [:]
        func text(_ id: Int64) throws -> String {
            if let text = labels[id] { return text }
            let text = try label(id)
            labels[id] = text
            return text
        }
        var users: [Int64: UserActivity] = [:]
        var run = UserActivity(), runUser: Int64?
        func flush() throws {
            if let runUser { try users[runUser, default: UserActivity()].merge(run, versionText: text) }
            run.removeAll()
        }
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: """
                SELECT user_key, name_id, count, last_timestamp, last_version_id FROM user_name_bucket
                WHERE app_id = ? AND bucket >= ? AND bucket < ?
                """),
            arguments: [app.rawValue, buckets.lowerBound, buckets.upperBound])
        while let row = try rows.next() {
            let user: Int64 = row[0]
            if user != runUser {
                try flush()
                runUser = user
            }
            run.add(name: row[1], count: row[2])
            try run.see(lastTimestamp: row[3], version: row[4], versionText: text)
        }
        try flush()

        var totals: [Int64: (events: Int, users: Int, maximum: Int)] = [:]
        var versions: [Int64: Int] = [:]
        for activity in users.values {
            versions[activity.lastVersion, default: 0] += 1
            for (name, count) in activity.counts {
                let total = totals[name, default: (0, 0, 0)]
                totals[name] = (total.events + count, total.users + 1, max(total.maximum, count))
            }
        }
        var perUser: [String: PerUserStats] = [:]
        for (name, total) in totals {
            perUser[try text(name)] = PerUserStats(average: Double(total.events) / Double(total.users), maximum: total.maximum)
        }
        return (perUser, try Dictionary(uniqueKeysWithValues: versions.map { (try text($0.key), $0.value) }))
    }

    /// The keys of the users with an event in `buckets`.
    ///
    /// Whole UTC days inside the window come from `user_chunk` when there are at least
    /// ``minimumChunkDays`` of them; the rest, and the partial UTC days at the edges, from `user_day`.
    func activeUsers(in buckets: Range<Int64>) throws -> Set<Int64> {
        var users = Set<Int64>(minimumCapacity: 4_096)
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

    /// The number of users with an event in each window between consecutive `starts` (window
    /// `i` is `starts[i]..<starts[i + 1]`), as for a daily series.
    ///
    /// Reads the `user_day` rows of each UTC day the windows touch once, testing each row's
    /// bucket bitmap against every window that overlaps its day (at most three local days
    /// overlap a UTC day), instead of one query per window and overlapped UTC day.
    func activeUserCounts(between starts: [Int64]) throws -> [Int] {
        var users = Array(repeating: Set<Int64>(), count: starts.count - 1)
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: """
                SELECT day, user_key, low_buckets, high_buckets FROM user_day WHERE app_id = ? AND day >= ? AND day <= ?
                """),
            arguments: [
                app.rawValue, Bucket.floorDivide(starts.first!, Bucket.perDay), Bucket.floorDivide(starts.last! - 1, Bucket.perDay),
            ])
        var day: Int64?
        var windows: [(index: Int, low: Int64, high: Int64)] = []
        while let row = try rows.next() {
            let rowDay: Int64 = row[0]
            if rowDay != day {
                day = rowDay
                let dayStart = rowDay * Bucket.perDay
                windows = zip(starts, starts.dropFirst()).enumerated().compactMap { index, window in
                    let first = max(window.0 - dayStart, 0), end = min(window.1 - dayStart, Bucket.perDay)
                    guard first < end else { return nil }
                    return (index, Self.mask(first..<end, within: 0..<48), Self.mask(first..<end, within: 48..<96))
                }
            }
            let user: Int64 = row[1], low: Int64 = row[2], high: Int64 = row[3]
            for window in windows where low & window.low != 0 || high & window.high != 0 {
                users[window.index].insert(user)
            }
        }
        return users.map(\.count)
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

import GRDB

/// The queries metrics are computed from: each reads the rollups of one app over a range
/// of 15-minute buckets (see ``Bucket``) inside a read transaction.
///
/// Queries that return a row per user (tens of thousands for a day) step through
/// ``RawStatement``; the rest use GRDB's cached statements.
struct RollupReader {
    let db: Database
    let app: AppID

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

    /// Calls `body` with the bucket, name (a `label` id) and count of each `name_bucket` row
    /// in `buckets`, in bucket order.
    func forEachNameCount(in buckets: Range<Int64>, _ body: (_ bucket: Int64, _ name: Int64, _ count: Int64) -> Void) throws {
        let rows = try bucketRows(
            sql: "SELECT bucket, name_id, count FROM name_bucket WHERE app_id = ?1 AND bucket >= ?2 AND bucket < ?3",
            in: buckets)
        while try rows.step() { body(rows.int64(at: 0), rows.int64(at: 1), rows.int64(at: 2)) }
    }

    /// Calls `body` with the bucket, user key and events of each `user_bucket` row in
    /// `buckets` where the user sent `name` (a `label` id), in bucket order.
    func forEachUserCount(
        of name: Int64, in buckets: Range<Int64>, _ body: (_ bucket: Int64, _ user: Int64, _ count: Int) -> Void
    ) throws {
        let rows = try bucketRows(
            sql: "SELECT bucket, user_key, names FROM user_bucket WHERE app_id = ?1 AND bucket >= ?2 AND bucket < ?3",
            in: buckets)
        while try rows.step() {
            var count = 0
            rows.withBlob(at: 2) { names in NameCounts.forEach(in: names) { if $0 == name { count += $1 } } }
            if count > 0 { body(rows.int64(at: 0), rows.int64(at: 1), count) }
        }
    }

    /// The id of the `label` with text `text`, or `nil` if no event name or version has it.
    func labelID(_ text: String) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM label WHERE text = ?"), arguments: [text])
    }

    /// `sql`, whose parameters are the app (1) and the range's bounds (2 and 3), ready to step.
    private func bucketRows(sql: String, in range: Range<Int64>) throws -> RawStatement {
        let rows = try RawStatement(db, sql: sql)
        rows.bind(app.rawValue, at: 1)
        rows.bind(range.lowerBound, at: 2)
        rows.bind(range.upperBound, at: 3)
        return rows
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

    /// Calls `body` with the key and the first event's millisecond of each user whose first
    /// event ever is in `buckets`.
    func forEachFirstSeen(in buckets: Range<Int64>, _ body: (_ user: Int64, _ firstSeen: Int64) -> Void) throws {
        let rows = try bucketRows(
            sql: "SELECT key, first_seen FROM app_user WHERE app_id = ?1 AND first_seen >= ?2 AND first_seen < ?3",
            in: buckets.lowerBound * Bucket.milliseconds..<buckets.upperBound * Bucket.milliseconds)
        while try rows.step() { body(rows.int64(at: 0), rows.int64(at: 1)) }
    }

    /// The users active in `buckets`, with per-user statistics and versions, from `user_bucket`.
    ///
    /// The hot loop of day metrics: one row per user and active bucket, about two per daily
    /// user, each decoded into an ``ActivityTable``. Label texts are looked up only for the
    /// few distinct names and versions at the end, and for the rare version tie (two last
    /// events at the same millisecond).
    func userActivity(
        in buckets: Range<Int64>
    ) throws -> (users: Set<Int64>, perUser: [String: PerUserStats], versions: [String: Int]) {
        var labels: [Int64: String] = [:]
        func text(_ id: Int64) throws -> String {
            if let text = labels[id] { return text }
            let text = try label(id)
            labels[id] = text
            return text
        }
        var table = ActivityTable()
        let rows = try bucketRows(
            sql: """
                SELECT user_key, names, last_timestamp, last_version_id FROM user_bucket
                WHERE app_id = ?1 AND bucket >= ?2 AND bucket < ?3
                """,
            in: buckets)
        while try rows.step() {
            let user = table.index(ofUser: rows.int64(at: 0))
            rows.withBlob(at: 1) { names in
                NameCounts.forEach(in: names) { name, count in table.add(user: user, name: name, count: count) }
            }
            try table.see(user: user, lastTimestamp: rows.int64(at: 2), version: rows.int64(at: 3), versionText: text)
        }

        var perUser: [String: PerUserStats] = [:]
        for total in table.totals {
            perUser[try text(total.name)] = PerUserStats(average: Double(total.events) / Double(total.users), maximum: total.maximum)
        }
        let versions = try Dictionary(uniqueKeysWithValues: table.versions.map { (try text($0.key), $0.value) })
        return (Set(table.users.keys), perUser, versions)
    }

    /// The number of users with an event in each of `windows`, windows that all end with
    /// the day `day` (its buckets) whose active users `dayUsers` are already known, as WAU and
    /// MAU end with the day of DAU.
    ///
    /// Each window's users are `dayUsers` plus those active between the window's start and
    /// the day's, so only that earlier part is read: its partial UTC day at the start from
    /// `user_day`, its whole UTC days from `user_chunk`, read once for all windows (each row
    /// tested against every window's days). The earlier part is stretched to the first UTC
    /// midnight inside the day when there is one: the users it adds are day users anyway.
    func activeUserCounts(in windows: [Range<Int64>], endingWith day: Range<Int64>, dayUsers: Set<Int64>) throws -> [Int] {
        let firstMidnight = Self.ceilingDay(day.lowerBound) * Bucket.perDay
        let end = firstMidnight <= day.upperBound ? firstMidnight : day.lowerBound
        var users = Array(repeating: dayUsers, count: windows.count)
        var wholeDays: [Range<Int64>] = []
        for (index, window) in windows.enumerated() {
            let earlier = min(window.lowerBound, end)..<end
            let firstWholeDay = Self.ceilingDay(earlier.lowerBound)
            let endWholeDay = max(firstWholeDay, Bucket.floorDivide(earlier.upperBound, Bucket.perDay))
            try addUsers(inDayBuckets: earlier.lowerBound..<min(firstWholeDay * Bucket.perDay, end), to: &users[index])
            try addUsers(inDayBuckets: max(endWholeDay * Bucket.perDay, earlier.lowerBound)..<end, to: &users[index])
            wholeDays.append(firstWholeDay..<endWholeDay)
        }
        try addUsers(inDays: wholeDays, to: &users)
        return users.map(\.count)
    }

    /// The number of users with an event in each window between consecutive `starts` (window
    /// `i` is `starts[i]..<starts[i + 1]`), as for a daily series.
    func activeUserCounts(between starts: [Int64]) throws -> [Int] {
        var users = Array(repeating: Set<Int64>(), count: starts.count - 1)
        try forEachActiveWindow(between: starts) { user, window in users[window].insert(user) }
        return users.map(\.count)
    }

    /// Calls `body` with a user and a window between consecutive `starts` (window `i` is
    /// `starts[i]..<starts[i + 1]`) in which the user has an event, once or more for each
    /// such pair.
    ///
    /// Reads the `user_day` rows of each UTC day the windows touch once, testing each row's
    /// bucket bitmap against every window that overlaps its day (at most three local days
    /// overlap a UTC day), instead of one query per window and overlapped UTC day.
    func forEachActiveWindow(between starts: [Int64], _ body: (_ user: Int64, _ window: Int) -> Void) throws {
        let rows = try bucketRows(
            sql: "SELECT day, user_key, low_buckets, high_buckets FROM user_day WHERE app_id = ?1 AND day >= ?2 AND day < ?3",
            in: Bucket.floorDivide(starts.first!, Bucket.perDay)..<Bucket.floorDivide(starts.last! - 1, Bucket.perDay) + 1)
        var day: Int64?
        var windows: [(index: Int, low: Int64, high: Int64)] = []
        while try rows.step() {
            let rowDay = rows.int64(at: 0)
            if rowDay != day {
                day = rowDay
                let dayStart = rowDay * Bucket.perDay
                windows = zip(starts, starts.dropFirst()).enumerated().compactMap { index, window in
                    let first = max(window.0 - dayStart, 0), end = min(window.1 - dayStart, Bucket.perDay)
                    guard first < end else { return nil }
                    return (index, Self.mask(first..<end, within: 0..<48), Self.mask(first..<end, within: 48..<96))
                }
            }
            let user = rows.int64(at: 1), low = rows.int64(at: 2), high = rows.int64(at: 3)
            for window in windows where low & window.low != 0 || high & window.high != 0 {
                body(user, window.index)
            }
        }
    }

    private func addUsers(inDayBuckets buckets: Range<Int64>, to users: inout Set<Int64>) throws {
        try forEachPeriod(of: Bucket.perDay, in: buckets) { day, slots in
            try addUsers(
                sql: """
                    SELECT user_key FROM user_day
                    WHERE app_id = ?1 AND day = ?2 AND ((low_buckets & ?3) != 0 OR (high_buckets & ?4) != 0)
                    """,
                arguments: [day, Self.mask(slots, within: 0..<48), Self.mask(slots, within: 48..<96)],
                to: &users)
        }
    }

    /// Adds to `users[i]` the users active on a UTC day of `days[i]`, reading each
    /// `user_chunk` row of the chunks involved once.
    private func addUsers(inDays days: [Range<Int64>], to users: inout [Set<Int64>]) throws {
        let touched = days.filter { !$0.isEmpty }
        guard let first = touched.map(\.lowerBound).min(), let last = touched.map(\.upperBound).max() else { return }
        try forEachPeriod(of: Bucket.daysPerChunk, in: first..<last) { chunk, _ in
            let chunkStart = chunk * Bucket.daysPerChunk
            let masks = days.map { days in
                Self.mask(days.clamped(to: chunkStart..<chunkStart + Bucket.daysPerChunk), within: chunkStart..<chunkStart + 64)
            }
            let rows = try RawStatement(db, sql: "SELECT user_key, days FROM user_chunk WHERE app_id = ?1 AND chunk = ?2 AND (days & ?3) != 0")
            rows.bind(app.rawValue, at: 1)
            rows.bind(chunk, at: 2)
            rows.bind(masks.reduce(0, |), at: 3)
            while try rows.step() {
                let user = rows.int64(at: 0), active = rows.int64(at: 1)
                for (index, mask) in masks.enumerated() where active & mask != 0 { users[index].insert(user) }
            }
        }
    }

    /// Adds the user keys `sql` selects; its parameters are the app (1), then `arguments`.
    private func addUsers(sql: String, arguments: [Int64], to users: inout Set<Int64>) throws {
        let keys = try RawStatement(db, sql: sql)
        keys.bind(app.rawValue, at: 1)
        for (index, argument) in arguments.enumerated() { keys.bind(argument, at: Int32(index + 2)) }
        while try keys.step() { users.insert(keys.int64(at: 0)) }
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

    /// The first UTC day starting at or after `bucket`.
    private static func ceilingDay(_ bucket: Int64) -> Int64 {
        -Bucket.floorDivide(-bucket, Bucket.perDay)
    }

    /// The bitmap of `bits` that fall in `field`, with bit `field.lowerBound` as bit 0.
    private static func mask(_ bits: Range<Int64>, within field: Range<Int64>) -> Int64 {
        let clamped = bits.clamped(to: field)
        return ((1 << Int64(clamped.count)) - 1) << (clamped.lowerBound - field.lowerBound)
    }
}

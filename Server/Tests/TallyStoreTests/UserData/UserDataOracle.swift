import Foundation
import GRDB
import PostgresNIO
import SeededRandom
import TallyEvent
import TallyStoreTesting

@testable import TallyStore

/// Random data for the tests of a user's deletion, and what they compare: every metric of an
/// app, and every stored text or blob that could hold a user's id.
enum UserDataOracle {
    /// The user deleted: an id no other text contains, sent as a property value too.
    static let deleted = "zq-deleted-user-7f3a"
    static let properties = SegmentProperties(event: ["button", "ref"], user: ["plan"])
    static let names = ["open", "tap", "tap", "screen_view", "screen_view", "identify", "buy", "purchase", "Zed"]
    static let days = 10
    /// The texts of ``events(seed:)`` that only ``deleted`` sends: a name, a screen, an app
    /// version and a currency.
    static let sentByTheDeletedOnly = ["only_deleted", "deleted-screen", "9.9-only-deleted", "XDL"]

    /// Random sessions of 25 users (one of them ``deleted``, with more events than most) over
    /// ``days`` days from ``MetricsPropertyTests/start``, some in debug builds.
    static func events(seed: UInt64) -> [Event] {
        var random = SplitMix64(seed: seed &* 7_919)
        var events: [Event] = []
        for session in 0..<Int.random(in: 120...180, using: &random) {
            let user = session % 6 == 0 ? deleted : "user\(Int.random(in: 0..<24, using: &random))"
            let id: String? = [nil, "s\(session % 40)", "s\(session % 40)"].randomElement(using: &random)!
            var time = MetricsPropertyTests.start + Int64.random(in: 0..<(Int64(days) * 86_400_000), using: &random)
            let version = ["1.0", "2.0", user == deleted ? "9.9-only-deleted" : "1.0"].randomElement(using: &random)!
            let debug = Int.random(in: 0..<8, using: &random) == 0
            for _ in 0..<Int.random(in: 1...20, using: &random) {
                time += Int64.random(in: 0...(Int.random(in: 0..<4, using: &random) == 0 ? 7_200_000 : 9_000), using: &random)
                let name = user == deleted && Int.random(in: 0..<10, using: &random) == 0 ? "only_deleted" : names.randomElement(using: &random)!
                var properties: [String: PropertyValue] = [:]
                switch name {
                case "screen_view":
                    properties["screen"] = .string(
                        user == deleted && Bool.random(using: &random) ? "deleted-screen" : "s\(Int.random(in: 0..<5, using: &random))")
                case "identify": properties["plan"] = [.string("free"), .string("pro"), .string(user)].randomElement(using: &random)!
                case "buy": properties["amount"] = .int(Int.random(in: 1...100, using: &random))
                case "purchase":
                    properties["revenue"] = .string("\(Int.random(in: -5...500, using: &random)).\(Int.random(in: 0...99, using: &random))")
                    properties["currency"] = .string(
                        user == deleted && Bool.random(using: &random) ? "XDL" : ["USD", "EUR"].randomElement(using: &random)!)
                default:
                    properties["button"] = [.string("b1"), .string("b2"), nil].randomElement(using: &random)!
                    if user == deleted || Int.random(in: 0..<5, using: &random) == 0 { properties["ref"] = .string(user) }
                }
                events.append(
                    Event(
                        id: .random(using: &random), name: name, timestamp: Date(unixMilliseconds: time), userID: user, sessionID: id,
                        appVersion: version, platform: ["iOS", "Android"].randomElement(using: &random)!, properties: properties,
                        isDebug: debug))
            }
        }
        return events.shuffled(using: &random)
    }

    /// Inserts `events` in random batches, some twice.
    static func insert(_ events: [Event], into store: EventStore, app: AppID, seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        let sent = events + (0..<20).compactMap { _ in events.randomElement(using: &random) }
        var inserted = 0
        while inserted < sent.count {
            let size = min(Int.random(in: 1...150, using: &random), sent.count - inserted)
            _ = try await store.events.insert(Array(sent[inserted..<inserted + size]), app: app)
            inserted += size
        }
    }

    /// The filters ``metrics(_:app:timeZone:filters:)`` reads under: none, a user property, an
    /// event property and a built-in one.
    static let filters = [
        SegmentFilter(), SegmentFilter([.is("plan", "pro")]), SegmentFilter([.is("button", "b1")]), SegmentFilter([.is("platform", "iOS")]),
    ]

    /// Every metric of `app` (and of its debug builds) over the data's days in `timeZone`, under
    /// each of `filters`, by a description of what was read.
    static func metrics(_ store: EventStore, app: AppID, timeZone: String, filters: [SegmentFilter] = filters) async throws -> [String: AnyHashable] {
        var read: [String: AnyHashable] = [:]
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timeZone)!
        let first = Date(unixMilliseconds: MetricsPropertyTests.start - 86_400_000)
        let dates = (0...days + 1).map { offset in
            let date = calendar.date(byAdding: .day, value: offset, to: first)!
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
        }
        let (from, to) = (dates.first!, dates.last!)
        for id in [app, app.debug] {
            for filter in filters {
                let key = "\(id.isDebug ? "debug" : "production") \(filter)"
                for date in dates {
                    read["day \(date) \(key)"] = try await store.metrics.day(
                        ReadScope(app: id, day: CalendarDay(date)!, timeZone: TimeZone(identifier: timeZone), filter: filter))
                    read["returning \(date) \(key)"] = try await store.metrics.returningUsers(
                        after: [1, 7], in: ReadScope(app: id, day: CalendarDay(date)!, timeZone: TimeZone(identifier: timeZone), filter: filter))
                    for name in ["tap", "screen_view", "only_deleted"] {
                        read["distinct \(name) \(date) \(key)"] = try await store.metrics.distinctUsers(
                            of: name, in: ReadScope(app: id, day: CalendarDay(date)!, timeZone: TimeZone(identifier: timeZone), filter: filter))
                    }
                    read["average \(date) \(key)"] = try await store.metrics.average(
                        of: "amount", event: "buy",
                        in: ReadScope(app: id, day: CalendarDay(date)!, timeZone: TimeZone(identifier: timeZone), filter: filter))
                    read["empty \(date) \(key)"] = try await store.metrics.emptyShare(
                        of: "button", event: "tap",
                        in: ReadScope(app: id, day: CalendarDay(date)!, timeZone: TimeZone(identifier: timeZone), filter: filter))
                    read["breakdown \(date) \(key)"] = try await store.metrics.breakdown(
                        event: "tap", by: "ref",
                        in: ReadScope(app: id, day: CalendarDay(date)!, timeZone: TimeZone(identifier: timeZone), filter: filter))
                }
                read["range \(key)"] = try await store.metrics.range(
                    ReadScope(app: id, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: timeZone), filter: filter))
                for period in [RetentionPeriod.day, .week] {
                    read["retention \(period) \(key)"] = try await store.metrics.retention(
                        ReadScope(app: id, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: timeZone), filter: filter),
                        period: period)
                }
                for name in ["tap", "only_deleted", "identify"] {
                    read["daily \(name) \(key)"] = try await store.metrics.dailyCounts(
                        of: name,
                        in: ReadScope(app: id, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: timeZone), filter: filter))
                }
                read["funnel \(key)"] = try await store.metrics.funnel(
                    ["open", "tap", "buy"],
                    in: ReadScope(app: id, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: timeZone), filter: filter))
                read["funnel by plan \(key)"] = try await store.metrics.funnel(
                    ["open", "screen_view"], breakdown: "plan",
                    in: ReadScope(app: id, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: timeZone), filter: filter))
                read["funnel by version \(key)"] = try await store.metrics.funnel(
                    ["tap", "open"], breakdown: "app_version",
                    in: ReadScope(app: id, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: timeZone), filter: filter))
                for (start, kind) in [("open", Paths.Kind.event), ("s1", .screen), ("deleted-screen", .screen)] {
                    read["paths \(start) \(key)"] = try await store.metrics.paths(
                        from: start, kind: kind, depth: 3,
                        in: ReadScope(app: id, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: timeZone), filter: filter))
                }
                read["revenue \(key)"] = try await store.metrics.revenue(
                    ReadScope(app: id, days: CalendarDay(from)!...CalendarDay(to)!, timeZone: TimeZone(identifier: timeZone), filter: filter))
                read["latest \(key)"] = try await store.events.latest(app: id, limit: 1_000, filter: filter)
            }
            let users = try await store.users.search(app: id, prefix: "", limit: 100)
            read["users \(id.isDebug)"] = users
            read["search \(id.isDebug)"] = try await store.users.search(app: id, prefix: "user1", limit: 100)
            for user in users {
                read["timeline \(user.id) \(id.isDebug)"] = try await store.users.timeline(app: id, user: user.id, limit: 1_000).map {
                    [AnyHashable($0.user), AnyHashable($0.events), AnyHashable($0.properties), AnyHashable($0.appVersion)]
                }
            }
        }
        return read
    }

    /// How many of a user's events (its number under each app id of `numbers`) the bucket
    /// logs and tails of those ids still hold, and how many removal tails hide a user's events
    /// there (see ``BucketLogTails``).
    static func logEvents(of numbers: [AppID: UInt32], in store: EventStore, database: TestDatabase) async throws -> (
        events: Int, removalTails: Int
    ) {
        var counted = (events: 0, removalTails: 0)
        for (app, number) in numbers {
            let sql = """
                SELECT events, NULL FROM bucket_log WHERE app_id = \(app.rawValue)
                UNION ALL SELECT events, removed_user FROM bucket_log_tail WHERE app_id = \(app.rawValue)
                """
            let rows: [(events: [UInt8], removed: Int64?)] =
                switch database {
                case .sqlite: try await store.pool.read { db in try Row.fetchAll(db, sql: sql).map { ([UInt8]($0[0] as Data), $0[1]) } }
                case .postgres:
                    try await store.postgres.rows(PostgresQuery(unsafeSQL: sql), as: (ByteBuffer, Int64?).self).map {
                        (Array($0.readableBytesView), $1)
                    }
                }
            for row in rows {
                guard row.removed == nil else {
                    counted.removalTails += 1
                    continue
                }
                counted.events += try row.events.withUnsafeBytes { try BucketLog(encoded: $0) }.entries.count { $0.user == number }
            }
        }
        return counted
    }

    /// Where `text` is stored in the database behind `store`: each table and column of text,
    /// JSON or blob whose value holds it.
    static func columns(holding text: String, in store: EventStore, database: TestDatabase) async throws -> [String] {
        switch database {
        case .sqlite:
            return try await store.pool.read { db in
                var found: [String] = []
                for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") {
                    for column in try Row.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table]) {
                        let name: String = column[0]
                        let count = try Int.fetchOne(
                            db, sql: "SELECT count(*) FROM \"\(table)\" WHERE instr(CAST(\"\(name)\" AS BLOB), CAST(? AS BLOB)) > 0",
                            arguments: [text])!
                        if count > 0 { found.append("\(table).\(name)") }
                    }
                }
                return found
            }
        case .postgres:
            let backend = store.postgres
            let columns = try await backend.rows(
                """
                SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
                JOIN information_schema.tables t ON t.table_name = c.table_name AND t.table_schema = c.table_schema
                WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
                    AND c.table_name NOT IN (SELECT relname FROM pg_class WHERE relispartition)
                """, as: (String, String, String).self)
            var found: [String] = []
            for (table, column, type) in columns {
                let value =
                    switch type {
                    case "bytea": "\"\(column)\""
                    default: "convert_to(\"\(column)\"::text, 'UTF8')"
                    }
                let count = try await backend.rows(
                    PostgresQuery(
                        unsafeSQL: "SELECT count(*) FROM \"\(table)\" WHERE position(convert_to($1, 'UTF8') in \(value)) > 0",
                        binds: {
                            var binds = PostgresBindings()
                            binds.append(text)
                            return binds
                        }()), as: Int64.self)[0]
                if count > 0 { found.append("\(table).\(column)") }
            }
            return found
        }
    }
}

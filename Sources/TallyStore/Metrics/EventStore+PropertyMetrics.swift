import GRDB

/// Metrics of one property over a day's raw events of one name, for the metrics a dashboard
/// configures (an average amount, how often a note is left empty, a breakdown by screen).
///
/// They read the `event` rows of the day through the `(app_id, timestamp)` index and the
/// property through SQLite's `json_each`, which matches any key exactly (a JSON path could
/// not name a key holding `"`). The cost grows with the day's events of the app: 1.5 to 5 ms
/// per call, debug build, for a demo-sized day (≈ 900 events, 240 users).
extension EventStore {
    /// The count, mean and maximum of the numeric values of `property` over the events named
    /// `event` on a day; see ``NumericSummary``.
    ///
    /// - Parameters:
    ///   - app: The app.
    ///   - event: The event name.
    ///   - property: The property key, matched exactly.
    ///   - date: The day, as `YYYY-MM-DD`.
    ///   - timeZone: The IANA identifier whose day `date` names; `nil` means the app's time zone.
    /// - Throws: The errors of ``metrics(app:date:timeZone:)``.
    public func propertyAverage(
        app: AppID, event: String, property: String, date: String, timeZone: String? = nil
    ) async throws -> NumericSummary {
        try await aggregate(
            "count(*), total(p.value), max(p.value)", where: "AND p.type IN ('integer', 'real')",
            app: app, event: event, property: property, date: date, timeZone: timeZone
        ) { row in
            let count: Int = row[0]
            return NumericSummary(count: count, average: count == 0 ? nil : row[1] / Double(count), maximum: row[2])
        }
    }

    /// How many events named `event` on a day leave `property` empty; see ``EmptyShare``.
    ///
    /// - Parameters: As for ``propertyAverage(app:event:property:date:timeZone:)``.
    /// - Throws: The errors of ``metrics(app:date:timeZone:)``.
    public func emptyPropertyShare(
        app: AppID, event: String, property: String, date: String, timeZone: String? = nil
    ) async throws -> EmptyShare {
        try await aggregate(
            "count(*), total(p.type IS NULL OR p.type = 'null' OR (p.type = 'text' AND trim(p.value, ?6) = ''))",
            app: app, event: event, property: property, date: date, timeZone: timeZone, extra: [Self.whiteSpace]
        ) { row in
            EmptyShare(events: row[0], empty: Int(row[1] as Double))
        }
    }

    /// The row of aggregates `columns` over ``eventsWithProperty`` and the condition `where`,
    /// whose parameter ?6 onwards are `extra`, as `read` decodes it.
    private func aggregate<T: Sendable>(
        _ columns: String, where condition: String = "", app: AppID, event: String, property: String, date: String,
        timeZone: String?, extra: StatementArguments = [], _ read: @escaping @Sendable (Row) -> T
    ) async throws -> T {
        try await readDay(app: app, date: date, timeZone: timeZone) { db, day, _ in
            // An aggregate without GROUP BY always answers one row.
            guard let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT \(columns) \(Self.eventsWithProperty) \(condition)"),
                arguments: Self.arguments(app, day, event, property) + extra)
            else { throw DatabaseError(resultCode: .SQLITE_ERROR, message: "an aggregate query returned no row") }
            return read(row)
        }
    }

    /// The events named `event` on a day by the value of `property`, with the distinct users
    /// of each value; see ``Breakdown``.
    ///
    /// - Parameters:
    ///   - limit: How many values ``Breakdown/top`` lists at most, clamped to
    ///     1...``maximumBreakdownLimit``; the rest are summed in the `other` fields.
    ///   - Other parameters: As for ``propertyAverage(app:event:property:date:timeZone:)``.
    /// - Throws: The errors of ``metrics(app:date:timeZone:)``.
    public func breakdown(
        app: AppID, event: String, property: String, date: String, timeZone: String? = nil, limit: Int = 50
    ) async throws -> Breakdown {
        let limit = min(max(limit, 1), Self.maximumBreakdownLimit)
        let (values, missing) = try await readDay(app: app, date: date, timeZone: timeZone) { db, day, _ in
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: """
                    SELECT p.type, p.value, e.user_id, count(*) \(Self.eventsWithProperty) GROUP BY p.type, p.value, e.user_id
                    """),
                arguments: Self.arguments(app, day, event, property))
            var missing = 0
            var values: [String: (events: Int, users: Set<String>)] = [:]
            while let row = try rows.next() {
                let value: String
                switch row[0] as String? {
                case "text": value = row[1]
                case "integer": value = String(row[1] as Int64)
                case "real": value = PropertiesJSON.text(of: row[1])
                case let type? where type == "true" || type == "false": value = type
                default:
                    missing += row[3] as Int
                    continue
                }
                values[value, default: (0, [])].events += row[3]
                values[value, default: (0, [])].users.insert(row[2])
            }
            return (values, missing)
        }
        let sorted = values.sorted { ($1.value.events, $0.key) < ($0.value.events, $1.key) }
        let others = sorted.dropFirst(limit)
        return Breakdown(
            top: sorted.prefix(limit).map { Breakdown.Entry(value: $0.key, events: $0.value.events, users: $0.value.users.count) },
            otherValues: others.count,
            otherEvents: others.reduce(0) { $0 + $1.value.events },
            otherUsers: others.reduce(into: Set<String>()) { $0.formUnion($1.value.users) }.count,
            missing: missing)
    }

    /// The most values ``breakdown(app:event:property:date:timeZone:limit:)`` lists.
    public static let maximumBreakdownLimit = 1_000

    /// The day's events named ?4 joined with their property ?5 (absent: a `NULL` type); ?1 is
    /// the app and ?2..<?3 the day's milliseconds.
    private static let eventsWithProperty = """
        FROM event e LEFT JOIN json_each(e.properties) p ON p.key = ?5
        WHERE e.app_id = ?1 AND e.timestamp >= ?2 AND e.timestamp < ?3 AND e.name = ?4
        """

    private static func arguments(_ app: AppID, _ day: Range<Int64>, _ event: String, _ property: String) -> StatementArguments {
        [app.rawValue, day.lowerBound, day.upperBound, event, property]
    }

    /// Every Unicode `White_Space` character, for SQLite's `trim`.
    private static let whiteSpace =
        "\u{09}\u{0A}\u{0B}\u{0C}\u{0D}\u{20}\u{85}\u{A0}\u{1680}\u{2000}\u{2001}\u{2002}\u{2003}\u{2004}\u{2005}\u{2006}"
        + "\u{2007}\u{2008}\u{2009}\u{200A}\u{2028}\u{2029}\u{202F}\u{205F}\u{3000}"

    /// Runs `body` in a read transaction with the milliseconds of the local day `date` (see
    /// ``metrics(app:date:timeZone:)``) and the calendar of the zone.
    func readDay<T: Sendable>(
        app: AppID, date: String, timeZone: String?,
        _ body: @escaping @Sendable (Database, _ milliseconds: Range<Int64>, LocalCalendar) throws -> T
    ) async throws -> T {
        let day = try CivilDay(date)
        return try await read(app: app, timeZone: timeZone) { reader, calendar in
            let buckets = try calendar.buckets(of: day...day)
            return try body(reader.db, buckets.lowerBound * Bucket.milliseconds..<buckets.upperBound * Bucket.milliseconds, calendar)
        }
    }
}

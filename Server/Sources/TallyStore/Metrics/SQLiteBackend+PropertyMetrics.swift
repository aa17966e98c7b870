import GRDB

/// Properties are read through SQLite's `json_each`, which matches any key exactly (a JSON
/// path could not name a key holding `"`), over the day's rows of the `(app_id, timestamp)` index.
extension SQLiteBackend {
    func numericProperty(
        app: AppID, event: String, property: String, in milliseconds: Range<Int64>
    ) async throws -> (count: Int, sum: Double, maximum: Double?) {
        try await aggregate(
            "count(*), total(p.value), max(p.value)", where: "AND p.type IN ('integer', 'real')",
            app: app, event: event, property: property, in: milliseconds
        ) { row in (row[0], row[1], row[2]) }
    }

    func emptyProperty(app: AppID, event: String, property: String, in milliseconds: Range<Int64>) async throws -> EmptyShare {
        try await aggregate(
            "count(*), total(p.type IS NULL OR p.type = 'null' OR (p.type = 'text' AND trim(p.value, ?6) = ''))",
            app: app, event: event, property: property, in: milliseconds, extra: [EmptyShare.whiteSpace]
        ) { row in
            EmptyShare(events: row[0], empty: Int(row[1] as Double))
        }
    }

    func propertyValues(
        app: AppID, event: String, property: String, in milliseconds: Range<Int64>
    ) async throws -> [(value: String?, user: String, events: Int)] {
        try await pool.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT p.type, p.value, e.user_id, count(*) \(Self.eventsWithProperty) GROUP BY p.type, p.value, e.user_id
                        """),
                arguments: Self.arguments(app, milliseconds, event, property)
            ).map { row in
                let value: String? =
                    switch row[0] as String? {
                    case "text": row[1]
                    case "integer": String(row[1] as Int64)
                    case "real": String(row[1] as Double)
                    case let type? where type == "true" || type == "false": type
                    default: nil
                    }
                return (value, row[2], row[3])
            }
        }
    }

    /// The row of aggregates `columns` over ``eventsWithProperty`` and the condition `where`,
    /// whose parameter ?6 onwards are `extra`, as `read` decodes it.
    private func aggregate<T: Sendable>(
        _ columns: String, where condition: String = "", app: AppID, event: String, property: String,
        in milliseconds: Range<Int64>, extra: StatementArguments = [], _ read: @escaping @Sendable (Row) -> T
    ) async throws -> T {
        try await pool.read { db in
            // An aggregate without GROUP BY always answers one row.
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT \(columns) \(Self.eventsWithProperty) \(condition)"),
                    arguments: Self.arguments(app, milliseconds, event, property) + extra)
            else { throw DatabaseError(resultCode: .SQLITE_ERROR, message: "an aggregate query returned no row") }
            return read(row)
        }
    }

    /// The day's events named ?4 joined with their property ?5 (absent: a `NULL` type); ?1 is
    /// the app and ?2..<?3 the day's milliseconds.
    private static let eventsWithProperty = """
        FROM event e LEFT JOIN json_each(e.properties) p ON p.key = ?5
        WHERE e.app_id = ?1 AND e.timestamp >= ?2 AND e.timestamp < ?3 AND e.name = ?4
        """

    private static func arguments(_ app: AppID, _ day: Range<Int64>, _ event: String, _ property: String) -> StatementArguments {
        [app.rawValue, day.lowerBound, day.upperBound, event, property]
    }
}

import PostgresNIO

/// Properties are read with the `json` operator `->`, which matches a key exactly, over the
/// day's rows of the `(app_id, timestamp)` index.
extension PostgresBackend {
    func numericProperty(
        app: AppID, event: String, property: String, in milliseconds: Range<Int64>
    ) async throws -> (count: Int, sum: Double, maximum: Double?) {
        let row = try await rows(
            """
            SELECT count(*), coalesce(sum(value), 0), max(value) FROM (
                SELECT (properties -> \(property))::text::double precision AS value FROM event
                WHERE app_id = \(app.rawValue) AND timestamp >= \(milliseconds.lowerBound) AND timestamp < \(milliseconds.upperBound)
                    AND name = \(event) AND json_typeof(properties -> \(property)) = 'number'
            ) numbers
            """, as: (Int64, Double, Double?).self)[0]
        return (Int(row.0), row.1, row.2)
    }

    func emptyProperty(app: AppID, event: String, property: String, in milliseconds: Range<Int64>) async throws -> EmptyShare {
        let row = try await rows(
            """
            SELECT count(*), count(*) FILTER (WHERE value IS NULL OR json_typeof(value) = 'null'
                OR (json_typeof(value) = 'string' AND btrim(value #>> '{}', \(EmptyShare.whiteSpace)) = ''))
            FROM (
                SELECT properties -> \(property) AS value FROM event
                WHERE app_id = \(app.rawValue) AND timestamp >= \(milliseconds.lowerBound) AND timestamp < \(milliseconds.upperBound)
                    AND name = \(event)
            ) properties
            """, as: (Int64, Int64).self)[0]
        return EmptyShare(events: Int(row.0), empty: Int(row.1))
    }

    func propertyValues(
        app: AppID, event: String, property: String, in milliseconds: Range<Int64>
    ) async throws -> [(value: String?, user: String, events: Int)] {
        try await rows(
            """
            SELECT json_typeof(value), value #>> '{}', user_id, count(*) FROM (
                SELECT properties -> \(property) AS value, user_id FROM event
                WHERE app_id = \(app.rawValue) AND timestamp >= \(milliseconds.lowerBound) AND timestamp < \(milliseconds.upperBound)
                    AND name = \(event)
            ) properties
            GROUP BY 1, 2, 3
            """, as: (String?, String?, String, Int64).self
        ).map { type, text, user, events in
            let value: String? =
                switch (type, text) {
                case ("string", let text?), ("boolean", let text?): text
                // Numbers as SQLite's json_each reads them: an integer's digits, a double in
                // Swift's shortest form (as `JSONWriter` wrote it: `12.0` stays a double).
                case ("number", let text?): Int64(text).map(String.init) ?? Double(text).map { String($0) }
                default: nil
                }
            return (value, user, Int(events))
        }
    }
}

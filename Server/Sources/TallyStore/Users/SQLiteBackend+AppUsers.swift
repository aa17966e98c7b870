import Foundation
import GRDB
import TallyEvent

extension SQLiteBackend {
    func appUser(app: AppID, id user: String) async throws -> (user: AppUser, number: UInt32, lastDay: Int64)? {
        try await pool.read { db in
            try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT number, first_seen, (SELECT max(day) FROM day_users WHERE app_id = ?1) FROM app_user
                        WHERE app_id = ?1 AND user_id = ?2
                        """),
                arguments: [app.rawValue, user]
            ).map { (AppUser(id: user, firstSeen: Date(unixMilliseconds: $0[1])), UInt32($0[0] as Int64), $0[2] ?? Bucket.day(of: 0)) }
        }
    }

    /// Text compares by its UTF-8 bytes (the `BINARY` collation), which is code point order.
    func appUsers(app: AppID, prefix: String, limit: Int) async throws -> [AppUser] {
        try await pool.read { db in
            let upper = AppUser.upperBound(ofPrefix: prefix)
            return try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT user_id, first_seen FROM app_user
                        WHERE app_id = ?1 AND user_id >= ?2 AND (?3 IS NULL OR user_id < ?3) ORDER BY user_id LIMIT ?4
                        """),
                arguments: [app.rawValue, prefix, upper, limit]
            ).map { AppUser(id: $0[0], firstSeen: Date(unixMilliseconds: $0[1])) }
        }
    }

    /// One lookup through `event_by_time` per millisecond; the cursor's sequence is the `rowid`.
    func userEvents(app: AppID, user: String, at timestamps: [Int64]) async throws -> [(event: Event, cursor: EventCursor)] {
        try await pool.read { db in
            let statement = try db.cachedStatement(
                sql: "SELECT \(Event.columns), rowid FROM event WHERE app_id = ? AND timestamp = ? AND user_id = ?")
            return try timestamps.flatMap { timestamp in
                try Row.fetchAll(statement, arguments: [app.rawValue, timestamp, user]).map {
                    (try Event(row: $0), EventCursor(timestamp: $0[2], sequence: $0[9]))
                }
            }
        }
    }

    func userTraits(app: AppID, number: UInt32, properties: [String]) async throws -> [String: String] {
        try await pool.read { db in
            let statement = try db.cachedStatement(
                sql: """
                    SELECT value.text FROM label AS property
                    JOIN user_trait ON user_trait.app_id = ?1 AND user_trait.property_id = property.id AND user_trait.user_number = ?2
                    JOIN label AS value ON value.id = user_trait.value_id
                    WHERE property.text = ?3
                    """)
            var traits: [String: String] = [:]
            for property in properties {
                traits[property] = try String.fetchOne(statement, arguments: [app.rawValue, Int64(number), property])
            }
            return traits
        }
    }
}

import Foundation
import PostgresNIO

extension PostgresBackend {
    func appUser(app: AppID, id user: String) async throws -> (user: AppUser, number: UInt32, lastDay: Int64)? {
        try await rows(
            """
            SELECT number, first_seen, (SELECT max(day) FROM day_users WHERE app_id = \(app.rawValue)) FROM app_user
            WHERE app_id = \(app.rawValue) AND user_id = \(user)
            """, as: (Int64, Int64, Int64?).self
        ).first.map { (AppUser(id: user, firstSeen: Date(unixMilliseconds: $0.1)), UInt32($0.0), $0.2 ?? Bucket.day(of: 0)) }
    }

    /// Compares in code point order (`COLLATE "C"`, as SQLite does) whatever the database's
    /// locale, through `app_user_by_id`.
    func appUsers(app: AppID, prefix: String, limit: Int) async throws -> [AppUser] {
        let upper = AppUser.upperBound(ofPrefix: prefix)
        return try await rows(
            """
            SELECT user_id, first_seen FROM app_user
            WHERE app_id = \(app.rawValue) AND user_id COLLATE "C" >= \(prefix)
                AND (\(upper)::text IS NULL OR user_id COLLATE "C" < \(upper))
            ORDER BY user_id COLLATE "C" LIMIT \(limit)
            """, as: (String, Int64).self
        ).map { AppUser(id: $0.0, firstSeen: Date(unixMilliseconds: $0.1)) }
    }

    func userTraits(app: AppID, number: UInt32, properties: [String]) async throws -> [String: String] {
        let rows = try await rows(
            """
            SELECT property.text, value.text FROM label AS property
            JOIN user_trait ON user_trait.app_id = \(app.rawValue) AND user_trait.property_id = property.id
                AND user_trait.user_number = \(Int64(number))
            JOIN label AS value ON value.id = user_trait.value_id
            WHERE property.text = ANY(\(properties))
            """, as: (String, String).self)
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }
}

public import Foundation
import GRDB

extension EventStore {
    /// The most sessions a user keeps: creating one more deletes the one that expires first,
    /// so the sessions table stays bounded by the number of users even if nobody calls
    /// ``deleteExpiredSessions(now:)``.
    public static let maximumSessionsPerUser = 50

    /// Stores a new session for `user`, with a fresh CSRF token, and returns it.
    ///
    /// Sessions are stored, so they survive a restart of the server. If `user` already has
    /// ``maximumSessionsPerUser`` sessions, those that expire first are deleted.
    ///
    /// - Parameters:
    ///   - user: The signed-in user.
    ///   - tokenHash: The hash of the session token (SHA-256, computed by the caller): the
    ///     store never sees the token itself. A hash already stored is replaced.
    ///   - expiresAt: When the session stops being valid.
    /// - Throws: ``TallyStoreError/unknownUser(_:)``, or a database error.
    @discardableResult
    public func createSession(user: DashboardUserID, tokenHash: Data, expiresAt: Date) async throws -> DashboardSession {
        let csrfToken = AccessKey.generate(prefix: "")
        return try await pool.write { db in
            guard let name = try String.fetchOne(db, sql: "SELECT name FROM dashboard_user WHERE id = ?", arguments: [user.rawValue]) else {
                throw TallyStoreError.unknownUser(user)
            }
            try db.execute(
                sql: "INSERT OR REPLACE INTO dashboard_session (token_hash, user_id, csrf_token, expires_at) VALUES (?, ?, ?, ?)",
                arguments: [tokenHash, user.rawValue, csrfToken, expiresAt.unixMilliseconds])
            try db.execute(
                sql: """
                    DELETE FROM dashboard_session WHERE token_hash IN (
                        SELECT token_hash FROM dashboard_session WHERE user_id = ?
                        ORDER BY expires_at DESC, rowid DESC LIMIT -1 OFFSET ?)
                    """,
                arguments: [user.rawValue, Self.maximumSessionsPerUser])
            return DashboardSession(
                user: DashboardUser(id: user, name: name), expiresAt: Date(unixMilliseconds: expiresAt.unixMilliseconds),
                csrfToken: csrfToken)
        }
    }

    /// The session whose token hashes to `tokenHash`, with its user, or `nil` if there is
    /// none or it expired at or before `now`.
    public func session(tokenHash: Data, now: Date = Date()) async throws -> DashboardSession? {
        try await pool.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT u.id, u.name, s.expires_at, s.csrf_token
                    FROM dashboard_session s JOIN dashboard_user u ON u.id = s.user_id
                    WHERE s.token_hash = ? AND s.expires_at > ?
                    """,
                arguments: [tokenHash, now.unixMilliseconds]
            ).map { row in
                DashboardSession(
                    user: DashboardUser(id: DashboardUserID(rawValue: row[0]), name: row[1]),
                    expiresAt: Date(unixMilliseconds: row[2]), csrfToken: row[3])
            }
        }
    }

    /// Deletes the session whose token hashes to `tokenHash` (signing out); does nothing if
    /// there is none.
    public func deleteSession(tokenHash: Data) async throws {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM dashboard_session WHERE token_hash = ?", arguments: [tokenHash])
        }
    }

    /// Deletes every session that expired at or before `now` and returns how many; call it
    /// now and then (for example hourly) to keep the table small.
    @discardableResult
    public func deleteExpiredSessions(now: Date = Date()) async throws -> Int {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM dashboard_session WHERE expires_at <= ?", arguments: [now.unixMilliseconds])
            return db.changesCount
        }
    }
}

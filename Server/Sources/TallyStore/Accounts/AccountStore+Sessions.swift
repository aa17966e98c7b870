public import Foundation

extension AccountStore {
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
        try await backend.insertSession(
            user: user, tokenHash: tokenHash, csrfToken: AccessKey.generate(prefix: ""), expiresAt: expiresAt.unixMilliseconds,
            keeping: Self.maximumSessionsPerUser)
    }

    /// The session whose token hashes to `tokenHash`, with its user, or `nil` if there is
    /// none or it expired at or before `now`.
    public func session(tokenHash: Data, now: Date = Date()) async throws -> DashboardSession? {
        try await backend.session(tokenHash: tokenHash, now: now.unixMilliseconds)
    }

    /// Which of `tokenHashes` name sessions that still exist and had not expired at `now`:
    /// one query, for a server checking the sessions of its open connections.
    public func liveSessions(tokenHashes: Set<Data>, now: Date = Date()) async throws -> Set<Data> {
        tokenHashes.isEmpty ? [] : try await backend.liveSessions(tokenHashes: tokenHashes, now: now.unixMilliseconds)
    }

    /// Deletes the session whose token hashes to `tokenHash` (signing out); does nothing if
    /// there is none.
    public func deleteSession(tokenHash: Data) async throws {
        try await backend.deleteSession(tokenHash: tokenHash)
    }

    /// Deletes every session that expired at or before `now` and returns how many; call it
    /// now and then (for example hourly) to keep the table small.
    @discardableResult
    public func deleteExpiredSessions(now: Date = Date()) async throws -> Int {
        try await backend.deleteExpiredSessions(now: now.unixMilliseconds)
    }
}

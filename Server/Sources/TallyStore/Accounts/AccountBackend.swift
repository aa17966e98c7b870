import Foundation

/// A backend's dashboard users, their sessions and their saved section layouts.
protocol AccountBackend: Sendable {
    /// Stores a new dashboard user; throws ``TallyStoreError/userNameTaken(_:)``.
    func insertUser(name: String, passwordHash: String, createdAt: Int64) async throws -> DashboardUser

    /// The user named `name` with its password hash, or `nil`.
    func user(named name: String) async throws -> (user: DashboardUser, passwordHash: String)?

    /// All dashboard users, by id.
    func users() async throws -> [DashboardUser]

    /// Stores a session and keeps the user's latest-expiring `keeping`; throws ``TallyStoreError/unknownUser(_:)``.
    func insertSession(
        user: DashboardUserID, tokenHash: Data, csrfToken: String, expiresAt: Int64, keeping: Int
    ) async throws -> DashboardSession

    /// The session of `tokenHash` unless it expired at or before `now`.
    func session(tokenHash: Data, now: Int64) async throws -> DashboardSession?

    /// Which of `tokenHashes` name sessions that had not expired at `now`.
    func liveSessions(tokenHashes: Set<Data>, now: Int64) async throws -> Set<Data>

    /// Deletes the session of `tokenHash`, if any.
    func deleteSession(tokenHash: Data) async throws

    /// Deletes the sessions expired at or before `now`; returns how many.
    func deleteExpiredSessions(now: Int64) async throws -> Int

    /// The layout `user` saved for `app`, or `nil`.
    func sectionLayout(user: DashboardUserID, app: AppID) async throws -> Data?

    /// Stores `user`'s layout for `app`; throws ``TallyStoreError/unknownUser(_:)`` or ``TallyStoreError/unknownApp(_:)``.
    func saveSectionLayout(_ data: Data, user: DashboardUserID, app: AppID) async throws
}

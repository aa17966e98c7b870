/// A backend's app members: which dashboard user has which ``AppRole`` in which app. Every
/// `app` reaches it as a production id.
protocol MemberBackend: Sendable {
    /// The members of `app`, by user name.
    func members(app: AppID) async throws -> [AppMember]

    /// The role of `user` in `app`, or `nil`.
    func role(of user: DashboardUserID, in app: AppID) async throws -> AppRole?

    /// The roles of each of `users` (not empty), by app.
    func roles(of users: Set<DashboardUserID>) async throws -> [DashboardUserID: [AppID: AppRole]]

    /// The apps where `user` has a role, by id.
    func apps(visibleTo user: DashboardUserID) async throws -> [App]

    /// Sets `user`'s role in `app` and returns the previous one; throws ``TallyStoreError/unknownUser(_:)``,
    /// ``TallyStoreError/unknownApp(_:)`` or ``TallyStoreError/lastOwner(_:)``.
    func setRole(_ role: AppRole, of user: DashboardUserID, in app: AppID) async throws -> AppRole?

    /// Removes `user`'s role in `app` and returns it; throws ``TallyStoreError/lastOwner(_:)``.
    func removeMember(_ user: DashboardUserID, from app: AppID) async throws -> AppRole?
}

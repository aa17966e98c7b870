/// Who may see and change each app: dashboard accounts' roles per app. Reached as ``EventStore/members``.
public struct MemberStore: Sendable {
    let store: EventStore
    var backend: any StoreBackend { store.backend }
}

extension EventStore {
    /// The members of each app and their roles.
    public var members: MemberStore { MemberStore(store: self) }
}

extension MemberStore {
    /// The members of `app`, by user name. An app's ``AppID/debug`` id has the members of its
    /// production id.
    public func list(app: AppID) async throws -> [AppMember] {
        try await backend.members(app: app.production)
    }

    /// The role of `user` in `app`, or `nil` if the user has none (then the user must not see
    /// the app at all). An app's ``AppID/debug`` id has the roles of its production id.
    public func role(of user: DashboardUserID, in app: AppID) async throws -> AppRole? {
        try await backend.role(of: user, in: app.production)
    }

    /// The roles of each of `users`, by production app id, in one query: for a server
    /// checking the open pages of its users. A user without any role has no entry.
    public func roles(of users: Set<DashboardUserID>) async throws -> [DashboardUserID: [AppID: AppRole]] {
        users.isEmpty ? [:] : try await backend.roles(of: users)
    }

    /// The apps in which `user` has a role, ordered by id (creation order).
    public func apps(visibleTo user: DashboardUserID) async throws -> [App] {
        try await backend.apps(visibleTo: user)
    }

    /// Gives `user` the role `role` in `app`: grants it to a user without one, or changes the
    /// user's role. Returns the role the user had before, `nil` for none.
    ///
    /// - Throws: ``TallyStoreError/unknownUser(_:)``, ``TallyStoreError/unknownApp(_:)``,
    ///   ``TallyStoreError/lastOwner(_:)`` when it would demote the app's only owner, or a
    ///   database error.
    @discardableResult
    public func setRole(_ role: AppRole, of user: DashboardUserID, in app: AppID) async throws -> AppRole? {
        try await backend.setRole(role, of: user, in: app.production)
    }

    /// Removes `user`'s role in `app` and returns it, or `nil` if the user had none (then
    /// nothing changes).
    ///
    /// - Throws: ``TallyStoreError/lastOwner(_:)`` when the user is the app's only owner
    ///   (an app always keeps one), or a database error.
    @discardableResult
    public func remove(_ user: DashboardUserID, from app: AppID) async throws -> AppRole? {
        try await backend.removeMember(user, from: app.production)
    }
}

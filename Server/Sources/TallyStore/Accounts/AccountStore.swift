import Foundation

/// Dashboard accounts, their sessions with CSRF tokens, and their section layouts. Reached as ``EventStore/accounts``.
public struct AccountStore: Sendable {
    let store: EventStore
    var backend: any StoreBackend { store.backend }
}

extension EventStore {
    /// Dashboard accounts, sessions and layouts (not tracked users: see ``users``).
    public var accounts: AccountStore { AccountStore(store: self) }
}

extension AccountStore {
    /// Creates a dashboard account.
    ///
    /// - Parameters:
    ///   - name: The sign-in name: 1 to ``DashboardUser/maximumNameLength`` characters, no
    ///     control characters, unique (compared exactly, so `Ana` and `ana` are two names).
    ///   - passwordHash: The password's hash as the caller computed it (for example bcrypt);
    ///     the store never sees the password.
    /// - Throws: ``TallyStoreError/invalidUserName(_:)``, ``TallyStoreError/userNameTaken(_:)``,
    ///   or a database error.
    @discardableResult
    public func create(name: String, passwordHash: String) async throws -> DashboardUser {
        try DashboardUser.validate(name: name)
        return try await backend.insertUser(name: name, passwordHash: passwordHash, createdAt: Date().unixMilliseconds)
    }

    /// The account named exactly `name` with its stored password hash, for signing in;
    /// `nil` if there is none.
    public func account(named name: String) async throws -> (user: DashboardUser, passwordHash: String)? {
        try await backend.user(named: name)
    }

    /// All dashboard accounts, ordered by id (creation order).
    public func all() async throws -> [DashboardUser] {
        try await backend.users()
    }
}

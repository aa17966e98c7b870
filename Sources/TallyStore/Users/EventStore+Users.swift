import Foundation
import GRDB

extension EventStore {
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
    public func createUser(name: String, passwordHash: String) async throws -> DashboardUser {
        try DashboardUser.validate(name: name)
        let createdAt = Date().unixMilliseconds
        return try await pool.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM dashboard_user WHERE name = ?)", arguments: [name]) != true else {
                throw TallyStoreError.userNameTaken(name)
            }
            try db.execute(
                sql: "INSERT INTO dashboard_user (name, password_hash, created_at) VALUES (?, ?, ?)",
                arguments: [name, passwordHash, createdAt])
            return DashboardUser(id: DashboardUserID(rawValue: db.lastInsertedRowID), name: name)
        }
    }

    /// The account named exactly `name` with its stored password hash, for signing in;
    /// `nil` if there is none.
    public func user(named name: String) async throws -> (user: DashboardUser, passwordHash: String)? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT id, name, password_hash FROM dashboard_user WHERE name = ?", arguments: [name])
                .map { row in (DashboardUser(id: DashboardUserID(rawValue: row[0]), name: row[1]), row[2]) }
        }
    }

    /// All dashboard accounts, ordered by id (creation order).
    public func users() async throws -> [DashboardUser] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT id, name FROM dashboard_user ORDER BY id")
                .map { DashboardUser(id: DashboardUserID(rawValue: $0[0]), name: $0[1]) }
        }
    }

    /// Throws ``TallyStoreError/unknownUser(_:)`` unless a dashboard account has id `user`.
    static func checkUser(_ db: Database, _ user: DashboardUserID) throws {
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM dashboard_user WHERE id = ?)", arguments: [user.rawValue]) == true else {
            throw TallyStoreError.unknownUser(user)
        }
    }
}

import Logging
import PostgresNIO

extension PostgresBackend {
    func members(app: AppID) async throws -> [AppMember] {
        try await rows(
            """
            SELECT u.id, u.name, m.role FROM app_member m JOIN dashboard_user u ON u.id = m.user_id
            WHERE m.app_id = \(app.rawValue) ORDER BY u.name COLLATE "C"
            """, as: (Int64, String, String).self
        ).compactMap { id, name, role in
            AppRole(rawValue: role).map { AppMember(user: DashboardUser(id: DashboardUserID(rawValue: id), name: name), role: $0) }
        }
    }

    func role(of user: DashboardUserID, in app: AppID) async throws -> AppRole? {
        try await rows("SELECT role FROM app_member WHERE app_id = \(app.rawValue) AND user_id = \(user.rawValue)", as: String.self)
            .first.flatMap(AppRole.init(rawValue:))
    }

    func roles(of users: Set<DashboardUserID>) async throws -> [DashboardUserID: [AppID: AppRole]] {
        var roles: [DashboardUserID: [AppID: AppRole]] = [:]
        let ids = users.map(\.rawValue)
        for (user, app, role) in try await rows(
            "SELECT user_id, app_id, role FROM app_member WHERE user_id = ANY(\(ids))", as: (Int64, Int64, String).self)
        {
            guard let role = AppRole(rawValue: role) else { continue }
            roles[DashboardUserID(rawValue: user), default: [:]][AppID(rawValue: app)] = role
        }
        return roles
    }

    func apps(visibleTo user: DashboardUserID) async throws -> [App] {
        try await apps(
            """
            SELECT \(unescaped: Self.appColumns) FROM app
            WHERE id IN (SELECT app_id FROM app_member WHERE user_id = \(user.rawValue)) ORDER BY id
            """)
    }

    /// Sets the role in a transaction that locks the app's row, so that two changes of one
    /// app's members run one after the other and the app keeps an owner.
    func setRole(_ role: AppRole, of user: DashboardUserID, in app: AppID) async throws -> AppRole? {
        try await client.transaction(logger: logger) { [logger] connection in
            let found = try await connection.query(
                """
                SELECT EXISTS (SELECT 1 FROM dashboard_user WHERE id = \(user.rawValue)),
                    EXISTS (SELECT 1 FROM app WHERE id = \(app.rawValue))
                """, logger: logger
            ).collect(as: (Bool, Bool).self)[0]
            guard found.0 else { throw TallyStoreError.unknownUser(user) }
            guard found.1 else { throw TallyStoreError.unknownApp(app) }
            let previous = try await Self.lockedRole(connection, of: user, in: app, logger: logger)
            if previous == .owner, role != .owner { try await Self.checkOtherOwner(connection, than: user, in: app, logger: logger) }
            try await connection.query(
                """
                INSERT INTO app_member (app_id, user_id, role) VALUES (\(app.rawValue), \(user.rawValue), \(role.rawValue))
                ON CONFLICT (app_id, user_id) DO UPDATE SET role = excluded.role
                """, logger: logger)
            return previous
        }
    }

    func removeMember(_ user: DashboardUserID, from app: AppID) async throws -> AppRole? {
        try await client.transaction(logger: logger) { [logger] connection in
            let previous = try await Self.lockedRole(connection, of: user, in: app, logger: logger)
            if previous == .owner { try await Self.checkOtherOwner(connection, than: user, in: app, logger: logger) }
            try await connection.query("DELETE FROM app_member WHERE app_id = \(app.rawValue) AND user_id = \(user.rawValue)", logger: logger)
            return previous
        }
    }

    /// Locks `app`'s row until the transaction ends, then reads `user`'s role in it.
    private static func lockedRole(_ connection: PostgresConnection, of user: DashboardUserID, in app: AppID, logger: Logger) async throws
        -> AppRole?
    {
        try await connection.query("SELECT 1 FROM app WHERE id = \(app.rawValue) FOR UPDATE", logger: logger)
        return try await connection.query(
            "SELECT role FROM app_member WHERE app_id = \(app.rawValue) AND user_id = \(user.rawValue)", logger: logger
        ).collect(as: String.self).first.flatMap(AppRole.init(rawValue:))
    }

    /// Throws ``TallyStoreError/lastOwner(_:)`` unless `app` has an owner besides `user`.
    private static func checkOtherOwner(_ connection: PostgresConnection, than user: DashboardUserID, in app: AppID, logger: Logger)
        async throws
    {
        let others = try await connection.query(
            "SELECT EXISTS (SELECT 1 FROM app_member WHERE app_id = \(app.rawValue) AND role = 'owner' AND user_id <> \(user.rawValue))",
            logger: logger
        ).collect(as: Bool.self)
        guard others.first == true else { throw TallyStoreError.lastOwner(app) }
    }
}

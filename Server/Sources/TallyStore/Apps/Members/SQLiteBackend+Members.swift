import GRDB

extension SQLiteBackend {
    func members(app: AppID) async throws -> [AppMember] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT u.id, u.name, m.role FROM app_member m JOIN dashboard_user u ON u.id = m.user_id
                    WHERE m.app_id = ? ORDER BY u.name
                    """,
                arguments: [app.rawValue]
            ).compactMap { row in
                AppRole(rawValue: row[2]).map { AppMember(user: DashboardUser(id: DashboardUserID(rawValue: row[0]), name: row[1]), role: $0) }
            }
        }
    }

    func role(of user: DashboardUserID, in app: AppID) async throws -> AppRole? {
        try await pool.read { db in try Self.role(db, of: user, in: app) }
    }

    func roles(of users: Set<DashboardUserID>) async throws -> [DashboardUserID: [AppID: AppRole]] {
        try await pool.read { db in
            var roles: [DashboardUserID: [AppID: AppRole]] = [:]
            // In chunks below SQLite's limit on bound parameters.
            let ids = users.map(\.rawValue)
            for start in stride(from: 0, to: ids.count, by: 500) {
                let chunk = ids[start..<min(start + 500, ids.count)]
                let request: SQLRequest<Row> = "SELECT user_id, app_id, role FROM app_member WHERE user_id IN \(chunk)"
                for row in try request.fetchAll(db) {
                    guard let role = AppRole(rawValue: row[2]) else { continue }
                    roles[DashboardUserID(rawValue: row[0]), default: [:]][AppID(rawValue: row[1])] = role
                }
            }
            return roles
        }
    }

    func apps(visibleTo user: DashboardUserID) async throws -> [App] {
        try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(App.columns) FROM app WHERE id IN (SELECT app_id FROM app_member WHERE user_id = ?) ORDER BY id",
                arguments: [user.rawValue]
            ).map(App.init(row:))
        }
    }

    func setRole(_ role: AppRole, of user: DashboardUserID, in app: AppID) async throws -> AppRole? {
        try await pool.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM dashboard_user WHERE id = ?)", arguments: [user.rawValue]) == true else {
                throw TallyStoreError.unknownUser(user)
            }
            guard try App.fetch(db, id: app) != nil else { throw TallyStoreError.unknownApp(app) }
            let previous = try Self.role(db, of: user, in: app)
            if previous == .owner, role != .owner { try Self.checkOtherOwner(db, than: user, in: app) }
            try db.execute(
                sql:
                    "INSERT INTO app_member (app_id, user_id, role) VALUES (?, ?, ?) ON CONFLICT (app_id, user_id) DO UPDATE SET role = excluded.role",
                arguments: [app.rawValue, user.rawValue, role.rawValue])
            return previous
        }
    }

    func removeMember(_ user: DashboardUserID, from app: AppID) async throws -> AppRole? {
        try await pool.write { db in
            let previous = try Self.role(db, of: user, in: app)
            if previous == .owner { try Self.checkOtherOwner(db, than: user, in: app) }
            try db.execute(sql: "DELETE FROM app_member WHERE app_id = ? AND user_id = ?", arguments: [app.rawValue, user.rawValue])
            return previous
        }
    }

    /// The role of `user` in `app`, read in `db`.
    private static func role(_ db: Database, of user: DashboardUserID, in app: AppID) throws -> AppRole? {
        try String.fetchOne(db, sql: "SELECT role FROM app_member WHERE app_id = ? AND user_id = ?", arguments: [app.rawValue, user.rawValue])
            .flatMap(AppRole.init(rawValue:))
    }

    /// Throws ``TallyStoreError/lastOwner(_:)`` unless `app` has an owner besides `user`.
    private static func checkOtherOwner(_ db: Database, than user: DashboardUserID, in app: AppID) throws {
        let others = try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM app_member WHERE app_id = ? AND role = 'owner' AND user_id <> ?)",
            arguments: [app.rawValue, user.rawValue])
        guard others == true else { throw TallyStoreError.lastOwner(app) }
    }
}

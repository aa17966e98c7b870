import Foundation
import PostgresNIO

extension PostgresBackend {
    func insertUser(name: String, passwordHash: String, createdAt: Int64) async throws -> DashboardUser {
        let ids = try await rows(
            """
            INSERT INTO dashboard_user (name, password_hash, created_at) VALUES (\(name), \(passwordHash), \(createdAt))
            ON CONFLICT (name) DO NOTHING RETURNING id
            """, as: Int64.self)
        guard let id = ids.first else { throw TallyStoreError.userNameTaken(name) }
        return DashboardUser(id: DashboardUserID(rawValue: id), name: name)
    }

    func user(named name: String) async throws -> (user: DashboardUser, passwordHash: String)? {
        try await rows("SELECT id, name, password_hash FROM dashboard_user WHERE name = \(name)", as: (Int64, String, String).self)
            .first.map { (DashboardUser(id: DashboardUserID(rawValue: $0.0), name: $0.1), $0.2) }
    }

    func users() async throws -> [DashboardUser] {
        try await rows("SELECT id, name FROM dashboard_user ORDER BY id", as: (Int64, String).self)
            .map { DashboardUser(id: DashboardUserID(rawValue: $0.0), name: $0.1) }
    }

    func insertSession(
        user: DashboardUserID, tokenHash: Data, csrfToken: String, expiresAt: Int64, keeping: Int
    ) async throws -> DashboardSession {
        try await client.transaction(logger: logger) { [logger] connection in
            var name: String?
            for try await found in try await connection.query(
                "SELECT name FROM dashboard_user WHERE id = \(user.rawValue) FOR UPDATE", logger: logger
            ).decode(String.self) { name = found }
            guard let name else { throw TallyStoreError.unknownUser(user) }
            try await connection.query(
                """
                INSERT INTO dashboard_session (token_hash, user_id, csrf_token, expires_at)
                VALUES (\(tokenHash), \(user.rawValue), \(csrfToken), \(expiresAt))
                ON CONFLICT (token_hash) DO UPDATE SET user_id = excluded.user_id, csrf_token = excluded.csrf_token,
                    expires_at = excluded.expires_at, created = nextval('event_sequence')
                """, logger: logger)
            try await connection.query(
                """
                DELETE FROM dashboard_session WHERE token_hash IN (
                    SELECT token_hash FROM dashboard_session WHERE user_id = \(user.rawValue)
                    ORDER BY expires_at DESC, created DESC OFFSET \(keeping))
                """, logger: logger)
            return DashboardSession(user: DashboardUser(id: user, name: name), expiresAt: Date(unixMilliseconds: expiresAt), csrfToken: csrfToken)
        }
    }

    func session(tokenHash: Data, now: Int64) async throws -> DashboardSession? {
        try await rows(
            """
            SELECT u.id, u.name, s.expires_at, s.csrf_token
            FROM dashboard_session s JOIN dashboard_user u ON u.id = s.user_id
            WHERE s.token_hash = \(tokenHash) AND s.expires_at > \(now)
            """, as: (Int64, String, Int64, String).self
        ).first.map { id, name, expiresAt, csrfToken in
            DashboardSession(
                user: DashboardUser(id: DashboardUserID(rawValue: id), name: name), expiresAt: Date(unixMilliseconds: expiresAt),
                csrfToken: csrfToken)
        }
    }

    func liveSessions(tokenHashes: Set<Data>, now: Int64) async throws -> Set<Data> {
        let hashes = tokenHashes.map { ByteBuffer(bytes: $0) }
        return Set(
            try await rows(
                "SELECT token_hash FROM dashboard_session WHERE expires_at > \(now) AND token_hash = ANY(\(hashes))", as: Data.self))
    }

    func deleteSession(tokenHash: Data) async throws {
        try await execute("DELETE FROM dashboard_session WHERE token_hash = \(tokenHash)")
    }

    func deleteExpiredSessions(now: Int64) async throws -> Int {
        try await rows("DELETE FROM dashboard_session WHERE expires_at <= \(now) RETURNING 1", as: Int.self).count
    }

    func sectionLayout(user: DashboardUserID, app: AppID) async throws -> Data? {
        try await rows(
            "SELECT layout FROM section_layout WHERE user_id = \(user.rawValue) AND app_id = \(app.rawValue)", as: Data.self
        ).first
    }

    func saveSectionLayout(_ data: Data, user: DashboardUserID, app: AppID) async throws {
        let found = try await rows(
            """
            SELECT EXISTS (SELECT 1 FROM dashboard_user WHERE id = \(user.rawValue)), EXISTS (SELECT 1 FROM app WHERE id = \(app.rawValue))
            """, as: (Bool, Bool).self)[0]
        guard found.0 else { throw TallyStoreError.unknownUser(user) }
        guard found.1 else { throw TallyStoreError.unknownApp(app) }
        try await execute(
            """
            INSERT INTO section_layout (user_id, app_id, layout) VALUES (\(user.rawValue), \(app.rawValue), \(data))
            ON CONFLICT (user_id, app_id) DO UPDATE SET layout = excluded.layout
            """)
    }
}

import Foundation
import GRDB

extension SQLiteBackend {
    func insertUser(name: String, passwordHash: String, createdAt: Int64) async throws -> DashboardUser {
        try await pool.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM dashboard_user WHERE name = ?)", arguments: [name]) != true else {
                throw TallyStoreError.userNameTaken(name)
            }
            try db.execute(
                sql: "INSERT INTO dashboard_user (name, password_hash, created_at) VALUES (?, ?, ?)",
                arguments: [name, passwordHash, createdAt])
            return DashboardUser(id: DashboardUserID(rawValue: db.lastInsertedRowID), name: name)
        }
    }

    func user(named name: String) async throws -> (user: DashboardUser, passwordHash: String)? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT id, name, password_hash FROM dashboard_user WHERE name = ?", arguments: [name])
                .map { row in (DashboardUser(id: DashboardUserID(rawValue: row[0]), name: row[1]), row[2]) }
        }
    }

    func users() async throws -> [DashboardUser] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT id, name FROM dashboard_user ORDER BY id")
                .map { DashboardUser(id: DashboardUserID(rawValue: $0[0]), name: $0[1]) }
        }
    }

    func insertSession(
        user: DashboardUserID, tokenHash: Data, csrfToken: String, expiresAt: Int64, keeping: Int
    ) async throws -> DashboardSession {
        try await pool.write { db in
            guard let name = try String.fetchOne(db, sql: "SELECT name FROM dashboard_user WHERE id = ?", arguments: [user.rawValue]) else {
                throw TallyStoreError.unknownUser(user)
            }
            try db.execute(
                sql: "INSERT OR REPLACE INTO dashboard_session (token_hash, user_id, csrf_token, expires_at) VALUES (?, ?, ?, ?)",
                arguments: [tokenHash, user.rawValue, csrfToken, expiresAt])
            try db.execute(
                sql: """
                    DELETE FROM dashboard_session WHERE token_hash IN (
                        SELECT token_hash FROM dashboard_session WHERE user_id = ?
                        ORDER BY expires_at DESC, rowid DESC LIMIT -1 OFFSET ?)
                    """,
                arguments: [user.rawValue, keeping])
            return DashboardSession(user: DashboardUser(id: user, name: name), expiresAt: Date(unixMilliseconds: expiresAt), csrfToken: csrfToken)
        }
    }

    func session(tokenHash: Data, now: Int64) async throws -> DashboardSession? {
        try await pool.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT u.id, u.name, s.expires_at, s.csrf_token
                    FROM dashboard_session s JOIN dashboard_user u ON u.id = s.user_id
                    WHERE s.token_hash = ? AND s.expires_at > ?
                    """,
                arguments: [tokenHash, now]
            ).map { row in
                DashboardSession(
                    user: DashboardUser(id: DashboardUserID(rawValue: row[0]), name: row[1]),
                    expiresAt: Date(unixMilliseconds: row[2]), csrfToken: row[3])
            }
        }
    }

    func liveSessions(tokenHashes: Set<Data>, now: Int64) async throws -> Set<Data> {
        try await pool.read { db in
            var live: Set<Data> = []
            // In chunks below SQLite's limit on bound parameters; GRDB's SQL literal binds
            // each hash of `chunk` as a parameter of the list.
            let hashes = Array(tokenHashes)
            for start in stride(from: 0, to: hashes.count, by: 500) {
                let chunk = hashes[start..<min(start + 500, hashes.count)]
                let request: SQLRequest<Data> = "SELECT token_hash FROM dashboard_session WHERE expires_at > \(now) AND token_hash IN \(chunk)"
                live.formUnion(try request.fetchAll(db))
            }
            return live
        }
    }

    func deleteSession(tokenHash: Data) async throws {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM dashboard_session WHERE token_hash = ?", arguments: [tokenHash])
        }
    }

    func deleteExpiredSessions(now: Int64) async throws -> Int {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM dashboard_session WHERE expires_at <= ?", arguments: [now])
            return db.changesCount
        }
    }

    func sectionLayout(user: DashboardUserID, app: AppID) async throws -> Data? {
        try await pool.read { db in
            try Data.fetchOne(
                db, sql: "SELECT layout FROM section_layout WHERE user_id = ? AND app_id = ?",
                arguments: [user.rawValue, app.rawValue])
        }
    }

    func saveSectionLayout(_ data: Data, user: DashboardUserID, app: AppID) async throws {
        try await pool.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM dashboard_user WHERE id = ?)", arguments: [user.rawValue]) == true else {
                throw TallyStoreError.unknownUser(user)
            }
            guard try App.fetch(db, id: app) != nil else { throw TallyStoreError.unknownApp(app) }
            try db.execute(
                sql: "INSERT OR REPLACE INTO section_layout (user_id, app_id, layout) VALUES (?, ?, ?)",
                arguments: [user.rawValue, app.rawValue, data])
        }
    }
}

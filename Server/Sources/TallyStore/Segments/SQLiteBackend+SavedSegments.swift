import GRDB

extension SQLiteBackend {
    func savedSegments(app: AppID) async throws -> [(name: String, filter: String, createdAt: Int64)] {
        try await pool.read { db in
            // TEXT compares as BINARY: UTF-8 bytes, which is code point order.
            try Row.fetchAll(
                db, sql: "SELECT name, filter, created_at FROM saved_segment WHERE app_id = ? ORDER BY name", arguments: [app.rawValue]
            ).map { ($0[0], $0[1], $0[2]) }
        }
    }

    func saveSegment(app: AppID, name: String, filter: String, createdAt: Int64, maximum: Int) async throws -> Int64 {
        // One writer at a time: the count and the insert see the same rows.
        try await pool.write { db in
            guard try App.fetch(db, id: app) != nil else { throw TallyStoreError.unknownApp(app) }
            let others = try Int.fetchOne(
                db, sql: "SELECT count(*) FROM saved_segment WHERE app_id = ? AND name <> ?", arguments: [app.rawValue, name])
            guard (others ?? 0) < maximum else { throw TallyStoreError.tooManySavedSegments(app) }
            try db.execute(
                sql: """
                    INSERT INTO saved_segment (app_id, name, filter, created_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (app_id, name) DO UPDATE SET filter = excluded.filter
                    """,
                arguments: [app.rawValue, name, filter, createdAt])
            return try Int64.fetchOne(
                db, sql: "SELECT created_at FROM saved_segment WHERE app_id = ? AND name = ?", arguments: [app.rawValue, name]) ?? createdAt
        }
    }

    func deleteSegment(app: AppID, name: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM saved_segment WHERE app_id = ? AND name = ?", arguments: [app.rawValue, name])
            return db.changesCount > 0
        }
    }
}

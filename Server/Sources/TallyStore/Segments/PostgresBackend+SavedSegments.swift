import PostgresNIO

extension PostgresBackend {
    /// The first key of the advisory locks that keep two saves of one app's segments apart
    /// (the two-key form: a key space apart from ingest's locks and the migrations').
    static let savedSegmentLockSpace: Int32 = 0x7365_676d

    func savedSegments(app: AppID) async throws -> [(name: String, filter: String, createdAt: Int64)] {
        // COLLATE "C": code point order, as SQLite's, whatever the database's locale.
        try await rows(
            """
            SELECT name, filter, created_at FROM saved_segment WHERE app_id = \(app.rawValue) ORDER BY name COLLATE "C"
            """, as: (String, String, Int64).self
        ).map { ($0.0, $0.1, $0.2) }
    }

    func saveSegment(app: AppID, name: String, filter: String, createdAt: Int64, maximum: Int) async throws -> Int64 {
        try await client.transaction(logger: logger) { [logger] connection in
            // Saves of one app wait for each other, so that two cannot both pass the count. Only
            // this lock is taken: no cycle with ingest's.
            let lock = Int32(truncatingIfNeeded: app.rawValue)
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.savedSegmentLockSpace), \(lock))", logger: logger)
            let found = try await connection.query(
                """
                SELECT EXISTS (SELECT 1 FROM app WHERE id = \(app.rawValue)),
                    (SELECT count(*) FROM saved_segment WHERE app_id = \(app.rawValue) AND name <> \(name))
                """, logger: logger
            ).collect(as: (Bool, Int64).self)[0]
            guard found.0 else { throw TallyStoreError.unknownApp(app) }
            guard found.1 < maximum else { throw TallyStoreError.tooManySavedSegments(app) }
            let rows = try await connection.query(
                """
                INSERT INTO saved_segment (app_id, name, filter, created_at) VALUES (\(app.rawValue), \(name), \(filter), \(createdAt))
                ON CONFLICT (app_id, name) DO UPDATE SET filter = excluded.filter RETURNING created_at
                """, logger: logger)
            var stored = createdAt
            for try await created in rows.decode(Int64.self) { stored = created }
            return stored
        }
    }

    func deleteSegment(app: AppID, name: String) async throws -> Bool {
        try await !rows(
            "DELETE FROM saved_segment WHERE app_id = \(app.rawValue) AND name = \(name) RETURNING 1", as: Int.self
        ).isEmpty
    }
}

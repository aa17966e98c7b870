import Foundation
import PostgresNIO

extension PostgresBackend {
    func insertAnnotation(app: AppID, time: Int64, text: String, createdAt: Int64, maximum: Int) async throws -> Int64 {
        try await client.transaction(logger: logger) { [logger] connection in
            // Inserts of one app wait for each other, so that two cannot both pass the count.
            let lock = Int32(truncatingIfNeeded: app.rawValue)
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.annotationLockSpace), \(lock))", logger: logger)
            let found = try await connection.query(
                """
                SELECT EXISTS (SELECT 1 FROM app WHERE id = \(app.rawValue)), (SELECT count(*) FROM annotation WHERE app_id = \(app.rawValue))
                """, logger: logger
            ).collect(as: (Bool, Int64).self)[0]
            guard found.0 else { throw TallyStoreError.unknownApp(app) }
            guard found.1 < maximum else { throw TallyStoreError.tooManyAnnotations(app) }
            let ids: [Int64] = try await connection.query(
                """
                INSERT INTO annotation (app_id, time, text, created_at) VALUES (\(app.rawValue), \(time), \(text), \(createdAt)) RETURNING id
                """, logger: logger
            ).collect(as: Int64.self)
            return ids[0]
        }
    }

    /// The first key of the advisory locks that keep two inserts of one app's annotations apart.
    static let annotationLockSpace: Int32 = 0x616e_6e6f

    func annotations(app: AppID, in range: Range<Int64>, limit: Int) async throws -> [Annotation] {
        try await rows(
            """
            SELECT id, time, text, created_at FROM annotation
            WHERE app_id = \(app.rawValue) AND time >= \(range.lowerBound) AND time < \(range.upperBound) ORDER BY time, id LIMIT \(limit)
            """, as: (Int64, Int64, String, Int64).self
        ).map { Annotation(id: $0.0, time: Date(unixMilliseconds: $0.1), text: $0.2, createdAt: Date(unixMilliseconds: $0.3)) }
    }

    func deleteAnnotation(app: AppID, id: Int64) async throws -> Bool {
        try await !rows("DELETE FROM annotation WHERE app_id = \(app.rawValue) AND id = \(id) RETURNING 1", as: Int.self).isEmpty
    }
}

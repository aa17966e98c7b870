import Foundation
import GRDB

extension SQLiteBackend {
    func insertAnnotation(app: AppID, time: Int64, text: String, createdAt: Int64, maximum: Int) async throws -> Int64 {
        try await pool.write { db in
            guard try App.fetch(db, id: app) != nil else { throw TallyStoreError.unknownApp(app) }
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM annotation WHERE app_id = ?", arguments: [app.rawValue]) ?? 0
            guard count < maximum else { throw TallyStoreError.tooManyAnnotations(app) }
            try db.execute(
                sql: "INSERT INTO annotation (app_id, time, text, created_at) VALUES (?, ?, ?, ?)",
                arguments: [app.rawValue, time, text, createdAt])
            return db.lastInsertedRowID
        }
    }

    func annotations(app: AppID, in range: Range<Int64>, limit: Int) async throws -> [Annotation] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT id, time, text, created_at FROM annotation WHERE app_id = ? AND time >= ? AND time < ? ORDER BY time, id LIMIT ?",
                arguments: [app.rawValue, range.lowerBound, range.upperBound, limit]
            ).map { Annotation(id: $0[0], time: Date(unixMilliseconds: $0[1]), text: $0[2], createdAt: Date(unixMilliseconds: $0[3])) }
        }
    }

    func deleteAnnotation(app: AppID, id: Int64) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM annotation WHERE app_id = ? AND id = ?", arguments: [app.rawValue, id])
            return db.changesCount > 0
        }
    }
}

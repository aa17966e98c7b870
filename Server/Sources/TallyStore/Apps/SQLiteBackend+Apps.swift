import Foundation
import GRDB

extension SQLiteBackend {
    func insertApp(
        name: String, timeZone: String, acceptedEventAge: TimeInterval, ingestKeyHash: Data, readTokenHash: Data, writeTokenHash: Data,
        createdAt: Int64
    ) async throws -> AppID {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO app (name, time_zone, accepted_event_age, ingest_key_hash, read_token_hash, write_token_hash, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [name, timeZone, acceptedEventAge, ingestKeyHash, readTokenHash, writeTokenHash, createdAt])
            return AppID(rawValue: db.lastInsertedRowID)
        }
    }

    func app(id: AppID) async throws -> App? {
        try await pool.read { db in try App.fetch(db, id: id) }
    }

    func app(_ secret: AppSecret, hash: Data) async throws -> App? {
        try await pool.read { db in
            switch secret {
            case .ingestKey: try App.fetch(db, whereColumn: "ingest_key_hash", equals: hash)
            case .readToken: try App.fetch(db, whereColumn: "read_token_hash", equals: hash)
            case .writeToken: try App.fetch(db, whereColumn: "write_token_hash", equals: hash)
            }
        }
    }

    func apps() async throws -> [App] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT \(App.columns) FROM app ORDER BY id").map(App.init(row:))
        }
    }

    func updateApp(
        _ id: AppID, timeZone: String?, acceptedEventAge: TimeInterval?, segmentProperties: SegmentProperties?, purchaseEvent: String?,
        rawRetention: RawRetention?
    ) async throws -> App {
        try await pool.write { db in
            guard let stored = try App.fetch(db, id: id) else { throw TallyStoreError.unknownApp(id) }
            let rebuilds = segmentProperties.map { $0 != stored.segmentProperties } ?? false
            if rebuilds, let keptSince = stored.rawEventsKeptSince {
                throw TallyStoreError.rawEventsPruned(id, keptSince: keptSince.unixMilliseconds)
            }
            try db.execute(
                sql: """
                    UPDATE app SET time_zone = coalesce(?, time_zone), accepted_event_age = coalesce(?, accepted_event_age),
                        segment_properties = coalesce(?, segment_properties), purchase_event = coalesce(?, purchase_event),
                        raw_retention_days = CASE WHEN ? THEN ? ELSE raw_retention_days END
                    WHERE id = ?
                    """,
                arguments: [
                    timeZone, acceptedEventAge, segmentProperties?.json, purchaseEvent, rawRetention != nil, rawRetention?.storedDays, id.rawValue,
                ])
            if let segmentProperties, rebuilds {
                for app in [id, id.debug] { try SegmentDelta.rebuild(db, app: app, properties: segmentProperties) }
            }
            return try App.fetch(db, id: id)!
        }
    }

    func replaceKeys(_ id: AppID, ingestKeyHash: Data, readTokenHash: Data, writeTokenHash: Data) async throws -> App {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE app SET ingest_key_hash = ?, read_token_hash = ?, write_token_hash = ? WHERE id = ?",
                arguments: [ingestKeyHash, readTokenHash, writeTokenHash, id.rawValue])
            guard let app = try App.fetch(db, id: id) else { throw TallyStoreError.unknownApp(id) }
            return app
        }
    }
}

import Foundation
import PostgresNIO

extension PostgresBackend {
    func insertApp(
        name: String, timeZone: String, acceptedEventAge: TimeInterval, ingestKeyHash: Data, readTokenHash: Data, createdAt: Int64
    ) async throws -> AppID {
        let ids = try await rows(
            """
            INSERT INTO app (name, time_zone, accepted_event_age, ingest_key_hash, read_token_hash, created_at)
            VALUES (\(name), \(timeZone), \(acceptedEventAge), \(ingestKeyHash), \(readTokenHash), \(createdAt)) RETURNING id
            """, as: Int64.self)
        return AppID(rawValue: ids[0])
    }

    /// The app with this id, or `nil`; for an app's ``AppID/debug`` id, the app with that id.
    func app(id: AppID) async throws -> App? {
        var app = try await apps("SELECT id, name, time_zone, accepted_event_age, created_at FROM app WHERE id = \(id.production.rawValue)").first
        app?.id = id
        return app
    }

    func app(_ secret: AppSecret, hash: Data) async throws -> App? {
        switch secret {
        case .ingestKey:
            try await apps("SELECT id, name, time_zone, accepted_event_age, created_at FROM app WHERE ingest_key_hash = \(hash)").first
        case .readToken:
            try await apps("SELECT id, name, time_zone, accepted_event_age, created_at FROM app WHERE read_token_hash = \(hash)").first
        }
    }

    func apps() async throws -> [App] {
        try await apps("SELECT id, name, time_zone, accepted_event_age, created_at FROM app ORDER BY id")
    }

    func updateApp(
        _ id: AppID, timeZone: String?, acceptedEventAge: TimeInterval?, segmentProperties: SegmentProperties?
    ) async throws -> App {
        let updated = try await apps(
            """
            UPDATE app SET time_zone = coalesce(\(timeZone), time_zone), accepted_event_age = coalesce(\(acceptedEventAge), accepted_event_age)
            WHERE id = \(id.rawValue) RETURNING id, name, time_zone, accepted_event_age, created_at
            """)
        guard let app = updated.first else { throw TallyStoreError.unknownApp(id) }
        return app
    }

    func replaceKeys(_ id: AppID, ingestKeyHash: Data, readTokenHash: Data) async throws -> App {
        let updated = try await apps(
            """
            UPDATE app SET ingest_key_hash = \(ingestKeyHash), read_token_hash = \(readTokenHash)
            WHERE id = \(id.rawValue) RETURNING id, name, time_zone, accepted_event_age, created_at
            """)
        guard let app = updated.first else { throw TallyStoreError.unknownApp(id) }
        return app
    }

    /// The apps `query` selects as `id, name, time_zone, accepted_event_age, created_at`.
    private func apps(_ query: PostgresQuery) async throws -> [App] {
        try await rows(query, as: (Int64, String, String, Double, Int64).self).map { id, name, timeZone, age, createdAt in
            App(id: AppID(rawValue: id), name: name, timeZone: timeZone, acceptedEventAge: age, createdAt: Date(unixMilliseconds: createdAt))
        }
    }
}

import Foundation
import Logging
import PostgresNIO

extension PostgresBackend {
    func insertApp(
        name: String, timeZone: String, acceptedEventAge: TimeInterval, ingestKeyHash: Data, readTokenHash: Data, writeTokenHash: Data,
        createdAt: Int64
    ) async throws -> AppID {
        let ids = try await rows(
            """
            INSERT INTO app (name, time_zone, accepted_event_age, ingest_key_hash, read_token_hash, write_token_hash, created_at)
            VALUES (\(name), \(timeZone), \(acceptedEventAge), \(ingestKeyHash), \(readTokenHash), \(writeTokenHash), \(createdAt))
            RETURNING id
            """, as: Int64.self)
        return AppID(rawValue: ids[0])
    }

    /// The app with this id, or `nil`; for an app's ``AppID/debug`` id, the app with that id.
    func app(id: AppID) async throws -> App? {
        var app = try await apps(
            "SELECT id, name, time_zone, accepted_event_age, created_at, segment_properties FROM app WHERE id = \(id.production.rawValue)"
        ).first
        app?.id = id
        return app
    }

    func app(_ secret: AppSecret, hash: Data) async throws -> App? {
        switch secret {
        case .ingestKey:
            try await apps("SELECT id, name, time_zone, accepted_event_age, created_at, segment_properties FROM app WHERE ingest_key_hash = \(hash)")
                .first
        case .readToken:
            try await apps("SELECT id, name, time_zone, accepted_event_age, created_at, segment_properties FROM app WHERE read_token_hash = \(hash)")
                .first
        case .writeToken:
            try await apps("SELECT id, name, time_zone, accepted_event_age, created_at, segment_properties FROM app WHERE write_token_hash = \(hash)")
                .first
        }
    }

    func apps() async throws -> [App] {
        try await apps("SELECT id, name, time_zone, accepted_event_age, created_at, segment_properties FROM app ORDER BY id")
    }

    /// Changes the app's settings in one transaction; when `segmentProperties` differ from
    /// the stored ones, also rebuilds what segments and funnels read for the app and its
    /// ``AppID/debug`` id from their raw events (``SegmentDelta/rebuild(_:app:properties:logger:)``),
    /// holding both ids' advisory locks as ingest does (see ``PostgresGroupWriter``): ingest of
    /// the app waits meanwhile, then writes under the new properties.
    func updateApp(
        _ id: AppID, timeZone: String?, acceptedEventAge: TimeInterval?, segmentProperties: SegmentProperties?
    ) async throws -> App {
        try await client.transaction(logger: logger) { [logger] connection in
            if segmentProperties != nil { try await PostgresGroupWriter.lock([id, id.debug], connection, logger: logger) }
            let stored = try await Self.apps(
                "SELECT id, name, time_zone, accepted_event_age, created_at, segment_properties FROM app WHERE id = \(id.rawValue)",
                connection, logger: logger)
            guard let stored = stored.first else { throw TallyStoreError.unknownApp(id) }
            let updated = try await Self.apps(
                """
                UPDATE app SET time_zone = coalesce(\(timeZone), time_zone), accepted_event_age = coalesce(\(acceptedEventAge), accepted_event_age),
                    segment_properties = coalesce(\(segmentProperties?.json), segment_properties)
                WHERE id = \(id.rawValue) RETURNING id, name, time_zone, accepted_event_age, created_at, segment_properties
                """, connection, logger: logger)
            if let segmentProperties, segmentProperties != stored.segmentProperties {
                for app in [id, id.debug] {
                    try await SegmentDelta.rebuild(connection, app: app, properties: segmentProperties, logger: logger)
                }
            }
            guard let app = updated.first else { throw TallyStoreError.unknownApp(id) }
            return app
        }
    }

    func replaceKeys(_ id: AppID, ingestKeyHash: Data, readTokenHash: Data, writeTokenHash: Data) async throws -> App {
        let updated = try await apps(
            """
            UPDATE app SET ingest_key_hash = \(ingestKeyHash), read_token_hash = \(readTokenHash), write_token_hash = \(writeTokenHash)
            WHERE id = \(id.rawValue) RETURNING id, name, time_zone, accepted_event_age, created_at, segment_properties
            """)
        guard let app = updated.first else { throw TallyStoreError.unknownApp(id) }
        return app
    }

    /// The apps `query` selects as `id, name, time_zone, accepted_event_age, created_at,
    /// segment_properties`.
    func apps(_ query: PostgresQuery) async throws -> [App] {
        try await client.withOpenConnection { [logger] connection in try await Self.apps(query, connection, logger: logger) }
    }

    /// The apps `query` selects on `connection`, as ``apps(_:)`` reads them.
    private static func apps(_ query: PostgresQuery, _ connection: PostgresConnection, logger: Logger) async throws -> [App] {
        try await connection.query(query, logger: logger).collect(as: (Int64, String, String, Double, Int64, String).self).map {
            id, name, timeZone, age, createdAt, segmentProperties in
            App(
                id: AppID(rawValue: id), name: name, timeZone: timeZone, acceptedEventAge: age, createdAt: Date(unixMilliseconds: createdAt),
                segmentProperties: SegmentProperties(json: segmentProperties))
        }
    }
}

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
            "SELECT \(unescaped: Self.appColumns) FROM app WHERE id = \(id.production.rawValue)"
        ).first
        app?.id = id
        return app
    }

    func app(_ secret: AppSecret, hash: Data) async throws -> App? {
        switch secret {
        case .ingestKey:
            try await apps("SELECT \(unescaped: Self.appColumns) FROM app WHERE ingest_key_hash = \(hash)")
                .first
        case .readToken:
            try await apps("SELECT \(unescaped: Self.appColumns) FROM app WHERE read_token_hash = \(hash)")
                .first
        case .writeToken:
            try await apps("SELECT \(unescaped: Self.appColumns) FROM app WHERE write_token_hash = \(hash)")
                .first
        }
    }

    func apps() async throws -> [App] {
        try await apps("SELECT \(unescaped: Self.appColumns) FROM app ORDER BY id")
    }

    /// Changes the app's settings in one transaction; when `segmentProperties` differ from
    /// the stored ones, also rebuilds what segments and funnels read for the app and its
    /// ``AppID/debug`` id from their raw events (``SegmentDelta/rebuild(_:app:properties:logger:)``),
    /// holding both ids' advisory locks as ingest does (see ``PostgresGroupWriter``): ingest of
    /// the app waits meanwhile, then writes under the new properties.
    ///
    /// The app's row is locked (`FOR UPDATE`) before it is read, so the check that no raw event
    /// was pruned and the rebuild it allows happen before, or wait for, a pruning's start
    /// (``PostgresBackend/pruneRawEvents(now:)``, which sets `raw_kept_since` first).
    func updateApp(
        _ id: AppID, timeZone: String?, acceptedEventAge: TimeInterval?, segmentProperties: SegmentProperties?, purchaseEvent: String?,
        rawRetention: RawRetention?
    ) async throws -> App {
        try await client.transaction(logger: logger) { [logger] connection in
            if segmentProperties != nil || purchaseEvent != nil { try await PostgresGroupWriter.lock([id, id.debug], connection, logger: logger) }
            let stored = try await Self.apps(
                "SELECT \(unescaped: Self.appColumns) FROM app WHERE id = \(id.rawValue) FOR UPDATE",
                connection, logger: logger)
            guard let stored = stored.first else { throw TallyStoreError.unknownApp(id) }
            let rebuilds = segmentProperties.map { $0 != stored.segmentProperties } ?? false
            if rebuilds, let keptSince = stored.rawEventsKeptSince {
                throw TallyStoreError.rawEventsPruned(id, keptSince: keptSince.unixMilliseconds)
            }
            let setsRetention = rawRetention != nil
            let updated = try await Self.apps(
                """
                UPDATE app SET time_zone = coalesce(\(timeZone), time_zone), accepted_event_age = coalesce(\(acceptedEventAge), accepted_event_age),
                    segment_properties = coalesce(\(segmentProperties?.json), segment_properties),
                    purchase_event = coalesce(\(purchaseEvent), purchase_event),
                    raw_retention_days = CASE WHEN \(setsRetention) THEN \(rawRetention?.storedDays) ELSE raw_retention_days END
                WHERE id = \(id.rawValue) RETURNING \(unescaped: Self.appColumns)
                """, connection, logger: logger)
            if let segmentProperties, rebuilds {
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
            WHERE id = \(id.rawValue) RETURNING \(unescaped: Self.appColumns)
            """)
        guard let app = updated.first else { throw TallyStoreError.unknownApp(id) }
        return app
    }

    /// The columns of `app` that ``apps(_:)`` reads, in order.
    static let appColumns =
        "id, name, time_zone, accepted_event_age, created_at, segment_properties, purchase_event, raw_retention_days, raw_kept_since"

    /// The apps `query` selects as ``appColumns``.
    func apps(_ query: PostgresQuery) async throws -> [App] {
        try await client.withOpenConnection { [logger] connection in try await Self.apps(query, connection, logger: logger) }
    }

    /// The apps `query` selects on `connection`, as ``apps(_:)`` reads them.
    static func apps(_ query: PostgresQuery, _ connection: PostgresConnection, logger: Logger) async throws -> [App] {
        try await connection.query(query, logger: logger).collect(as: (Int64, String, String, Double, Int64, String, String, Int64?, Int64?).self).map
        {
            id, name, timeZone, age, createdAt, segmentProperties, purchaseEvent, retention, keptSince in
            App(
                id: AppID(rawValue: id), name: name, timeZone: timeZone, acceptedEventAge: age, createdAt: Date(unixMilliseconds: createdAt),
                segmentProperties: SegmentProperties(json: segmentProperties), purchaseEvent: purchaseEvent,
                rawRetentionDays: retention.map(Int.init),
                rawEventsKeptSince: keptSince.map(Date.init(unixMilliseconds:)))
        }
    }
}

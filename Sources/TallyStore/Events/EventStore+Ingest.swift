import GRDB

extension EventStore {
    /// Stores a batch of validated events for `app` and updates the rollups, in one transaction.
    ///
    /// An event whose id is already stored for the app, or appears earlier in the batch, is
    /// a duplicate: it is not stored again and does not count in metrics. When this method
    /// returns, the accepted events and their rollups are committed and synced to disk
    /// (see "Durability" in ``EventStore``); if it throws, nothing from the batch is stored.
    ///
    /// Validation (required fields, accepted age, clock-skew correction) is the caller's job.
    ///
    /// - Throws: ``TallyStoreError/unknownApp(_:)`` if no app has id `app`, or a database error.
    @discardableResult
    public func insert(_ events: [Event], app: AppID) async throws -> InsertResult {
        try await pool.write { db in
            guard try App.fetch(db, id: app) != nil else { throw TallyStoreError.unknownApp(app) }
            let insert = try db.cachedStatement(sql: """
                INSERT INTO event (app_id, id, name, timestamp, device_timestamp, user_id, session_id, app_version, platform, properties)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (app_id, id) DO NOTHING
                """)
            var delta = RollupDelta()
            var accepted = 0
            for event in events {
                let timestamp = event.timestamp.unixMilliseconds
                try insert.execute(arguments: [
                    app.rawValue, event.id.uuidString, event.name, timestamp, event.deviceTimestamp.unixMilliseconds,
                    event.userID, event.sessionID, event.appVersion, event.platform, PropertiesJSON.encode(event.properties),
                ])
                if db.changesCount > 0 {
                    accepted += 1
                    delta.add(event, timestamp: timestamp)
                }
            }
            try delta.write(db, app: app)
            return InsertResult(accepted: accepted, duplicates: events.count - accepted)
        }
    }
}

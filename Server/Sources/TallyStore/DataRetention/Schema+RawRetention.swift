import GRDB

extension Schema {
    /// Migration "raw-retention": each app's raw event retention (see ``RawRetention``).
    ///
    /// - `app.raw_retention_days`: how many whole UTC days of raw events the app keeps; `NULL`
    ///   keeps them all, as every app does after the upgrade.
    /// - `app.raw_kept_since`: the first millisecond of the kept raw events once pruning
    ///   (``SQLiteBackend/pruneRawEvents(now:)``) started deleting earlier ones; `NULL` while
    ///   none was deleted. Rollups are never pruned.
    ///
    /// The migrations before it that rebuild from raw events ("user-sets", "segments", "bucket-log-sessions") never meet a
    /// pruned app: they run before this one. A later migration that rebuilds from raw events
    /// must leave the rows of apps with a `raw_kept_since` before it as they are, or it would
    /// lose the pruned period; ``SQLiteBackend/updateApp(_:timeZone:acceptedEventAge:segmentProperties:rawRetention:)``
    /// refuses its rebuild for them.
    static func addRawRetention(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE app ADD COLUMN raw_retention_days INTEGER;
                ALTER TABLE app ADD COLUMN raw_kept_since INTEGER;
                """)
    }
}

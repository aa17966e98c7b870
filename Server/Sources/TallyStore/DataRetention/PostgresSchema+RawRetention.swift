extension PostgresSchema {
    /// Migration "raw-retention": each app's raw event retention, as on SQLite (see
    /// ``Schema/addRawRetention(_:)``).
    static let rawRetention = """
        ALTER TABLE app ADD COLUMN raw_retention_days bigint;
        ALTER TABLE app ADD COLUMN raw_kept_since bigint;
        """
}

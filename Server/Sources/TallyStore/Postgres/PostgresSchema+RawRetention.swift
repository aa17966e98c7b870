extension PostgresSchema {
    /// Migration 8: each app's raw event retention, as SQLite's "v9" (see
    /// ``Schema/addRawRetention(_:)``).
    static let rawRetention = """
        ALTER TABLE app ADD COLUMN raw_retention_days bigint;
        ALTER TABLE app ADD COLUMN raw_kept_since bigint;
        """
}

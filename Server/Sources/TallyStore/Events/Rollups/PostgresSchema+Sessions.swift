extension PostgresSchema {
    /// Migration "bucket-log-sessions": the bucket logs gain each event's session (see
    /// ``SessionHash``), which paths read; ``addBucketLogSessions(_:logger:)`` rebuilds them from
    /// the raw events, as on SQLite. The lock keeps ingest out until the migration commits.
    static let bucketLogSessions = """
        LOCK TABLE app IN ACCESS EXCLUSIVE MODE;
        """
}

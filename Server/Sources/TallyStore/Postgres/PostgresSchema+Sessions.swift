extension PostgresSchema {
    /// Migration 6: the bucket logs gain each event's session (see ``SessionHash``), which
    /// paths read; ``finish(version:_:logger:)`` rebuilds them from the raw events, as
    /// SQLite's "v7" does. The lock keeps ingest out until the migration commits.
    static let bucketLogSessions = """
        LOCK TABLE app IN ACCESS EXCLUSIVE MODE;
        """
}

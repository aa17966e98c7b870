extension PostgresSchema {
    /// Migration 4: `bucket_log_tail`, as SQLite's "v6" (see ``Schema/createBucketLogTails(_:)``).
    /// Migration 2 creates it too, before its rebuild, which writes as ingest does today.
    static let bucketLogTails = """
        CREATE TABLE IF NOT EXISTS bucket_log_tail (
            app_id bigint NOT NULL,
            bucket bigint NOT NULL,
            revision bigint NOT NULL,
            events bytea NOT NULL,
            PRIMARY KEY (app_id, bucket, revision)
        );
        """
}

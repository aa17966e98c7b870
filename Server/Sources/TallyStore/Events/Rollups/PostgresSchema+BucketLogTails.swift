extension PostgresSchema {
    /// Migration "bucket-log-tails": `bucket_log_tail`, as on SQLite (see ``Schema/createBucketLogTails(_:)``).
    /// Migration "segments" creates it too, before its rebuild, which writes as ingest does today: with
    /// migration "removal-tails"'s column.
    static let bucketLogTails = """
        CREATE TABLE IF NOT EXISTS bucket_log_tail (
            app_id bigint NOT NULL,
            bucket bigint NOT NULL,
            revision bigint NOT NULL,
            events bytea NOT NULL,
            removed_user bigint,
            PRIMARY KEY (app_id, bucket, revision)
        );
        """

    /// Migration "removal-tails": a tail's `removed_user` and `bucket_log_tail_removals`, as on SQLite
    /// (see ``Schema/addRemovalTails(_:)``); and `bucket_activity`'s blobs stored without
    /// compression, which they defeat (varints of user gaps: 17.5 MB of the 60-day fixture
    /// took 17.5 MB compressed) and which cost a user's deletion, which rewrites them, 40% of
    /// the rewrite (138–157 ms against 84–92 ms for the fixture's 5,761 rows).
    static let removalTails =
        removedUser + """
            CREATE INDEX bucket_log_tail_removals ON bucket_log_tail (app_id, bucket) WHERE removed_user IS NOT NULL;
            ALTER TABLE bucket_activity ALTER COLUMN names SET STORAGE EXTERNAL, ALTER COLUMN versions SET STORAGE EXTERNAL;
            """

    /// `bucket_log_tail`'s `removed_user`, if missing: migration "bucket-log-sessions" rebuilds the logs as ingest
    /// writes them today, which reads it.
    static let removedUser = "ALTER TABLE bucket_log_tail ADD COLUMN IF NOT EXISTS removed_user bigint;\n"
}

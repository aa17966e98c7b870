import GRDB

extension Schema {
    /// Migration "v6": `bucket_log_tail`, a bucket's newest events beside its `bucket_log`
    /// row until a commit folds them into it (see ``BucketLogTails``), each tail with its
    /// revision, numbered as the logs' are. Migration "v4" creates it too, before its rebuild,
    /// which writes as ingest does today.
    static func createBucketLogTails(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS bucket_log_tail (
                    app_id INTEGER NOT NULL,
                    bucket INTEGER NOT NULL,
                    revision INTEGER NOT NULL,
                    events BLOB NOT NULL,
                    PRIMARY KEY (app_id, bucket, revision)
                ) WITHOUT ROWID;
                """)
    }
}

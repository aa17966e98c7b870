import GRDB

extension Schema {
    /// Migration "bucket-log-tails": `bucket_log_tail`, a bucket's newest events beside its `bucket_log`
    /// row until a commit folds them into it (see ``BucketLogTails``), each tail with its
    /// revision, numbered as the logs' are. Migration "segments" creates it too, before its rebuild,
    /// which writes as ingest does today: with migration "removal-tails"'s column.
    static func createBucketLogTails(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS bucket_log_tail (
                    app_id INTEGER NOT NULL,
                    bucket INTEGER NOT NULL,
                    revision INTEGER NOT NULL,
                    events BLOB NOT NULL,
                    removed_user INTEGER,
                    PRIMARY KEY (app_id, bucket, revision)
                ) WITHOUT ROWID;
                """)
    }

    /// Migration "removal-tails": a tail's `removed_user`, the number of a deleted user whose events the
    /// bucket's log and tails no longer show (its `events` empty), and
    /// `bucket_log_tail_removals`, the buckets that have such tails, for
    /// ``UserDataStore/foldRemovals()``.
    static func addRemovalTails(_ db: Database) throws {
        try addRemovedUser(db)
        try db.execute(sql: "CREATE INDEX bucket_log_tail_removals ON bucket_log_tail(app_id, bucket) WHERE removed_user IS NOT NULL")
    }

    /// `bucket_log_tail`'s `removed_user`, if missing: migration "bucket-log-sessions" rebuilds the logs as
    /// ingest writes them today, which reads it.
    static func addRemovedUser(_ db: Database) throws {
        guard try !db.columns(in: "bucket_log_tail").contains(where: { $0.name == "removed_user" }) else { return }
        try db.execute(sql: "ALTER TABLE bucket_log_tail ADD COLUMN removed_user INTEGER")
    }
}

extension PostgresSchema {
    /// Migration "user-deletions": `user_deletion`, as on SQLite (see ``Schema/createUserDeletions(_:)``).
    /// Its greatest id is also what ingest checks its cached facts against (see
    /// ``PostgresGroupWriter``).
    static let userDeletions = """
        CREATE TABLE user_deletion (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            app_id bigint NOT NULL,
            deleted_at bigint NOT NULL,
            deleted_by text NOT NULL,
            events bigint NOT NULL
        );
        CREATE INDEX user_deletion_by_app ON user_deletion (app_id, id);
        CREATE TABLE user_number_floor (
            app_id bigint PRIMARY KEY,
            next bigint NOT NULL
        );
        """
}

extension PostgresSchema {
    /// Migration "saved-segments": `saved_segment`, as on SQLite (see ``Schema/createSavedSegments(_:)``).
    static let savedSegments = """
        CREATE TABLE saved_segment (
            app_id bigint NOT NULL REFERENCES app(id) ON DELETE CASCADE,
            name text NOT NULL,
            filter text NOT NULL,
            created_at bigint NOT NULL,
            PRIMARY KEY (app_id, name)
        );
        """
}

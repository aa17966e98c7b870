import GRDB

extension Schema {
    /// Migration "saved-segments": `saved_segment`, per app and name, the text of a saved segment's
    /// filter (``SavedSegment``) and when the name was first saved (milliseconds since 1970).
    static func createSavedSegments(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE saved_segment (
                    app_id INTEGER NOT NULL REFERENCES app(id) ON DELETE CASCADE,
                    name TEXT NOT NULL,
                    filter TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    PRIMARY KEY (app_id, name)
                ) WITHOUT ROWID;
                """)
    }
}

import GRDB

extension Schema {
    /// Migration "user-deletions": `user_deletion`, the record of each deletion of a user's data (see
    /// ``UserDeletion``): app, when, by whom, how many events; never the user's id. And
    /// `user_number_floor`: per app id, the least number a new user may get, above every
    /// deleted user's, so that a number never names a second user.
    static func createUserDeletions(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE user_deletion (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    app_id INTEGER NOT NULL,
                    deleted_at INTEGER NOT NULL,
                    deleted_by TEXT NOT NULL,
                    events INTEGER NOT NULL
                );
                CREATE INDEX user_deletion_by_app ON user_deletion(app_id, id);
                """)
        try createUserNumberFloor(db)
    }

    /// Migration "erased-events": `erased_event`, the ids of the raw events deleted with a user's data,
    /// with their instants and without the user's id: ingest counts an event of such an id as a
    /// duplicate, as it does one whose row is stored, until the app no longer accepts it (see
    /// ``UserDataStore/delete(app:user:by:)``).
    static func createErasedEvents(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE erased_event (
                    app_id INTEGER NOT NULL,
                    id BLOB NOT NULL,
                    timestamp INTEGER NOT NULL,
                    PRIMARY KEY (app_id, id)
                ) WITHOUT ROWID;
                """)
    }

    /// Migration "pending-erasures": `user_erasure`, the deletions of users' data under way (see
    /// ``PendingErasure``): when a process last wrote to one, and its state as JSON; and an
    /// index of `erased_event` by app and instant, for forgetting the ids ingest no longer
    /// accepts.
    static func createPendingErasures(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE user_erasure (
                    id INTEGER PRIMARY KEY,
                    touched INTEGER NOT NULL,
                    state TEXT NOT NULL
                );
                CREATE INDEX erased_event_by_age ON erased_event(app_id, timestamp);
                """)
    }

    /// `user_number_floor`, if missing: migration "user-sets" rebuilds the rollups as ingest writes them
    /// today, which reads it.
    static func createUserNumberFloor(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS user_number_floor (
                    app_id INTEGER PRIMARY KEY,
                    next INTEGER NOT NULL
                );
                """)
    }
}

import GRDB

extension Schema {
    /// Migration "members": `app_member`, per app and dashboard user, the user's ``AppRole`` (its
    /// raw value), deleted with the app or the user; `app_member_by_user` lists a user's
    /// apps. Every existing user becomes an owner of every existing app, so nobody loses
    /// access on upgrade.
    static func createMembers(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE app_member (
                    app_id INTEGER NOT NULL REFERENCES app(id) ON DELETE CASCADE,
                    user_id INTEGER NOT NULL REFERENCES dashboard_user(id) ON DELETE CASCADE,
                    role TEXT NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
                    PRIMARY KEY (app_id, user_id)
                ) WITHOUT ROWID;
                CREATE INDEX app_member_by_user ON app_member(user_id, app_id);
                INSERT INTO app_member (app_id, user_id, role) SELECT app.id, dashboard_user.id, 'owner' FROM app, dashboard_user;
                """)
    }
}

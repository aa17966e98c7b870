extension PostgresSchema {
    /// Migration 7: `app_member`, as SQLite's "v8" (see ``Schema/createMembers(_:)``): every
    /// existing user becomes an owner of every existing app.
    static let members = """
        CREATE TABLE app_member (
            app_id bigint NOT NULL REFERENCES app(id) ON DELETE CASCADE,
            user_id bigint NOT NULL REFERENCES dashboard_user(id) ON DELETE CASCADE,
            role text NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
            PRIMARY KEY (app_id, user_id)
        );
        CREATE INDEX app_member_by_user ON app_member (user_id, app_id);
        INSERT INTO app_member (app_id, user_id, role) SELECT app.id, dashboard_user.id, 'owner' FROM app, dashboard_user;
        """
}

extension PostgresSchema {
    /// Migration "members": `app_member`, as on SQLite (see ``Schema/createMembers(_:)``): every
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

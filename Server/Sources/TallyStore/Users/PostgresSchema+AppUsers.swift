extension PostgresSchema {
    /// Migration "app-user-search": `app_user_by_id`, which a search of users by the start of their id reads
    /// in code point order, as SQLite's primary key of `app_user` does, whatever the
    /// database's locale (see ``UserStore/search(app:prefix:limit:)``).
    static let appUserIndexes = """
        CREATE INDEX app_user_by_id ON app_user (app_id, user_id COLLATE "C");
        """
}

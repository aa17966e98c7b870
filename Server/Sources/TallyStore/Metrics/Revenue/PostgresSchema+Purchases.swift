extension PostgresSchema {
    /// Migration "purchases": the app's `purchase_event` and `purchase`, as on SQLite (see
    /// ``Schema/createPurchases(_:)``).
    static let purchases = """
        ALTER TABLE app ADD COLUMN purchase_event text NOT NULL DEFAULT 'purchase';
        CREATE TABLE purchase (
            app_id bigint NOT NULL,
            timestamp bigint NOT NULL,
            user_number bigint NOT NULL,
            segment_key bigint NOT NULL,
            currency text NOT NULL,
            amount bigint NOT NULL
        );
        CREATE INDEX purchase_by_time ON purchase (app_id, timestamp);
        CREATE INDEX purchase_by_user ON purchase (app_id, user_number);
        """
}

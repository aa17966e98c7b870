import GRDB

extension Schema {
    /// Migration "purchases": the app's `purchase_event` (``App/purchaseEvent``, `purchase` for
    /// every existing app) and `purchase`, per purchase event a commit stores from then on
    /// (see ``PurchaseRow``): its millisecond, user number, segment key, currency and amount
    /// in millionths. `purchase_by_time` reads a range, `purchase_by_user` one user's
    /// purchases. Events stored before the migration are not read again.
    static func createPurchases(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE app ADD COLUMN purchase_event TEXT NOT NULL DEFAULT 'purchase';
                CREATE TABLE purchase (
                    app_id INTEGER NOT NULL,
                    timestamp INTEGER NOT NULL,
                    user_number INTEGER NOT NULL,
                    segment_key INTEGER NOT NULL,
                    currency TEXT NOT NULL,
                    amount INTEGER NOT NULL
                );
                CREATE INDEX purchase_by_time ON purchase(app_id, timestamp);
                CREATE INDEX purchase_by_user ON purchase(app_id, user_number);
                """)
    }
}

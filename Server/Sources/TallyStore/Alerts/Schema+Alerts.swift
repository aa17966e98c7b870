import GRDB

extension Schema {
    /// Migration "alerts": alerts, their webhooks and annotations.
    ///
    /// - `app.write_token_hash`: the SHA-256 of the app's write token (``NewApp/writeToken``),
    ///   `NULL` for an app made before the migration until its keys are rotated.
    /// - `alert_rule`: per app and name, a rule made in the dashboard (``AlertRule``): its
    ///   metric and condition as text, its webhook URL and the secret that signs its bodies.
    /// - `alert_evaluation`: per app, rule and evaluation time (milliseconds), the value the
    ///   rule saw and whether it fired. Its primary key is the claim that makes an evaluation
    ///   happen once however many collectors evaluate (``AlertStore/record(_:)``).
    /// - `webhook_delivery`: the outbox (``WebhookDelivery``): a signed body waiting to be
    ///   POSTed, delivered, or given up, with its attempts and the time of the next one.
    /// - `annotation`: per app, a note at an instant (``Annotation``).
    static func createAlerts(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE app ADD COLUMN write_token_hash BLOB;
                CREATE UNIQUE INDEX app_write_token ON app(write_token_hash);
                CREATE TABLE alert_rule (
                    app_id INTEGER NOT NULL REFERENCES app(id) ON DELETE CASCADE,
                    name TEXT NOT NULL,
                    metric TEXT NOT NULL,
                    condition TEXT NOT NULL,
                    webhook TEXT NOT NULL,
                    secret TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    PRIMARY KEY (app_id, name)
                ) WITHOUT ROWID;
                CREATE TABLE alert_evaluation (
                    app_id INTEGER NOT NULL REFERENCES app(id) ON DELETE CASCADE,
                    rule TEXT NOT NULL,
                    at INTEGER NOT NULL,
                    day TEXT NOT NULL,
                    metric TEXT NOT NULL,
                    condition TEXT NOT NULL,
                    value REAL NOT NULL,
                    previous REAL,
                    fired INTEGER NOT NULL,
                    ends_day INTEGER NOT NULL,
                    PRIMARY KEY (app_id, rule, at)
                ) WITHOUT ROWID;
                CREATE INDEX alert_evaluation_fired ON alert_evaluation(app_id, fired, at);
                CREATE TABLE webhook_delivery (
                    id INTEGER PRIMARY KEY,
                    app_id INTEGER NOT NULL REFERENCES app(id) ON DELETE CASCADE,
                    rule TEXT NOT NULL,
                    delivery_id TEXT NOT NULL UNIQUE,
                    url TEXT NOT NULL,
                    body BLOB NOT NULL,
                    signature TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    next_attempt_at INTEGER NOT NULL,
                    state INTEGER NOT NULL DEFAULT 0,
                    last_error TEXT
                );
                CREATE INDEX webhook_delivery_due ON webhook_delivery(state, next_attempt_at);
                CREATE TABLE annotation (
                    id INTEGER PRIMARY KEY,
                    app_id INTEGER NOT NULL REFERENCES app(id) ON DELETE CASCADE,
                    time INTEGER NOT NULL,
                    text TEXT NOT NULL,
                    created_at INTEGER NOT NULL
                );
                CREATE INDEX annotation_by_time ON annotation(app_id, time);
                """)
    }
}

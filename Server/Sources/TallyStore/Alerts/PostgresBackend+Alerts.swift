import Foundation
import PostgresNIO

extension PostgresBackend {
    /// The first key of the advisory locks that keep two saves of one app's rules apart.
    static let alertRuleLockSpace: Int32 = 0x616c_7274

    func alertRules(app: AppID) async throws -> [StoredAlertRule] {
        try await rows(
            """
            SELECT name, metric, condition, webhook, secret, created_at FROM alert_rule WHERE app_id = \(app.rawValue)
            ORDER BY name COLLATE "C"
            """, as: (String, String, String, String, String, Int64).self
        ).map { StoredAlertRule(name: $0.0, metric: $0.1, condition: $0.2, webhook: $0.3, secret: $0.4, createdAt: $0.5) }
    }

    func saveAlertRule(_ rule: StoredAlertRule, app: AppID, maximum: Int) async throws {
        try await client.transaction(logger: logger) { [logger] connection in
            // Saves of one app wait for each other, so that two cannot both pass the count.
            let lock = Int32(truncatingIfNeeded: app.rawValue)
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.alertRuleLockSpace), \(lock))", logger: logger)
            let found = try await connection.query(
                """
                SELECT EXISTS (SELECT 1 FROM app WHERE id = \(app.rawValue)),
                    (SELECT count(*) FROM alert_rule WHERE app_id = \(app.rawValue) AND name <> \(rule.name))
                """, logger: logger
            ).collect(as: (Bool, Int64).self)[0]
            guard found.0 else { throw TallyStoreError.unknownApp(app) }
            guard found.1 < maximum else { throw TallyStoreError.tooManyAlertRules(app) }
            try await connection.query(
                """
                INSERT INTO alert_rule (app_id, name, metric, condition, webhook, secret, created_at)
                VALUES (\(app.rawValue), \(rule.name), \(rule.metric), \(rule.condition), \(rule.webhook), \(rule.secret), \(rule.createdAt))
                ON CONFLICT (app_id, name) DO UPDATE SET metric = excluded.metric, condition = excluded.condition,
                    webhook = excluded.webhook, secret = excluded.secret, created_at = excluded.created_at
                """, logger: logger)
        }
    }

    func deleteAlertRule(app: AppID, name: String) async throws -> Bool {
        try await !rows("DELETE FROM alert_rule WHERE app_id = \(app.rawValue) AND name = \(name) RETURNING 1", as: Int.self).isEmpty
    }

    func record(_ evaluation: AlertEvaluation, app: AppID, delivery: DeliveryDraft?, maximumPending: Int) async throws -> Bool {
        try await client.transaction(logger: logger) { [logger] connection in
            // The primary key is the claim: of two collectors recording the same evaluation, one
            // inserts, the other waits for its commit and then inserts nothing.
            let inserted = try await connection.query(
                """
                INSERT INTO alert_evaluation (app_id, rule, at, day, metric, condition, value, previous, fired, ends_day)
                VALUES (\(app.rawValue), \(evaluation.rule), \(evaluation.at.unixMilliseconds), \(evaluation.day), \(evaluation.metric),
                    \(evaluation.condition), \(evaluation.value), \(evaluation.previous), \(evaluation.fired), \(evaluation.endsDay))
                ON CONFLICT DO NOTHING RETURNING 1
                """, logger: logger
            ).collect(as: Int.self)
            guard !inserted.isEmpty else { return false }
            guard let delivery else { return true }
            let state = WebhookDelivery.State.dropped.rawValue
            try await connection.query(
                """
                INSERT INTO webhook_delivery (app_id, rule, delivery_id, url, body, signature, created_at, next_attempt_at)
                VALUES (\(app.rawValue), \(delivery.rule), \(delivery.deliveryID), \(delivery.url), \(Data(delivery.body)),
                    \(delivery.signature), \(delivery.createdAt), \(delivery.createdAt))
                """, logger: logger)
            try await connection.query(
                """
                UPDATE webhook_delivery SET state = \(state), last_error = 'the outbox was full'
                WHERE state = 0 AND id <= (SELECT id FROM webhook_delivery WHERE state = 0 ORDER BY id DESC LIMIT 1 OFFSET \(maximumPending))
                """, logger: logger)
            return true
        }
    }

    func alertEvaluations(app: AppID, firedOnly: Bool, limit: Int) async throws -> [AlertEvaluation] {
        try await rows(
            """
            SELECT rule, at, day, ends_day, metric, condition, value, previous, fired FROM alert_evaluation
            WHERE app_id = \(app.rawValue) AND (fired OR NOT \(firedOnly)) ORDER BY at DESC, rule COLLATE "C" LIMIT \(limit)
            """, as: (String, Int64, String, Bool, String, String, Double, Double?, Bool).self
        ).map { row in
            AlertEvaluation(
                rule: row.0, at: Date(unixMilliseconds: row.1), day: row.2, endsDay: row.3, metric: row.4, condition: row.5, value: row.6,
                previous: row.7, fired: row.8)
        }
    }

    func pruneAlerts(before: Int64) async throws {
        try await execute("DELETE FROM alert_evaluation WHERE at < \(before)")
        try await execute("DELETE FROM webhook_delivery WHERE state <> 0 AND created_at < \(before)")
    }

    func claimDeliveries(now: Int64, lease: Int64, limit: Int, perApp: Int, excluding: [AppID]) async throws -> [WebhookDelivery] {
        try await execute(
            """
            UPDATE webhook_delivery SET state = \(WebhookDelivery.State.gaveUp.rawValue), last_error = \(Self.unknownStateError)
            WHERE state NOT IN \(unescaped: Self.knownStates)
            """)
        // The window ranks without locking (a window function cannot lock its rows); the rows
        // it picks are then locked, SKIP LOCKED so that collectors claiming at once take
        // different rows, and checked again, so that a row another collector has just claimed
        // is left out.
        let excluded = excluding.map(\.rawValue)
        return try await rows(
            """
            UPDATE webhook_delivery SET next_attempt_at = \(now + lease)
            WHERE id IN (
                SELECT id FROM webhook_delivery WHERE state = 0 AND next_attempt_at <= \(now) AND id IN (
                    SELECT id FROM (
                        SELECT id, next_attempt_at, row_number() OVER (PARTITION BY app_id ORDER BY next_attempt_at, id) AS rank
                        FROM webhook_delivery WHERE state = 0 AND next_attempt_at <= \(now) AND app_id <> ALL(\(excluded))) AS due
                    WHERE rank <= \(Int64(perApp)) ORDER BY next_attempt_at, id LIMIT \(limit))
                FOR UPDATE SKIP LOCKED)
            RETURNING \(unescaped: Self.deliveryColumns)
            """, as: DeliveryRow.self
        ).compactMap(Self.delivery(row:)).sorted { $0.id < $1.id }
    }

    func finishAttempt(id: Int64, attempts: Int, state: WebhookDelivery.State, nextAttemptAt: Int64, error: String?) async throws {
        try await execute(
            """
            UPDATE webhook_delivery SET attempts = \(attempts), state = \(state.rawValue), next_attempt_at = \(nextAttemptAt),
                last_error = \(error) WHERE id = \(id)
            """)
    }

    func deliveries(app: AppID, limit: Int) async throws -> [WebhookDelivery] {
        try await rows(
            """
            SELECT \(unescaped: Self.deliveryColumns) FROM webhook_delivery WHERE app_id = \(app.rawValue) ORDER BY id DESC LIMIT \(limit)
            """, as: DeliveryRow.self
        ).compactMap(Self.delivery(row:))
    }

    /// The columns of a ``DeliveryRow``, in order.
    static let deliveryColumns = "id, app_id, rule, delivery_id, url, body, signature, created_at, attempts, state, last_error"
    typealias DeliveryRow = (Int64, Int64, String, String, String, Data, String, Int64, Int, Int, String?)

    /// The delivery of a row; `nil` for one in a state the store does not write, which the next
    /// claim gives up.
    static func delivery(row: DeliveryRow) -> WebhookDelivery? {
        guard let state = WebhookDelivery.State(rawValue: row.9) else { return nil }
        return WebhookDelivery(
            id: row.0, app: AppID(rawValue: row.1), rule: row.2, deliveryID: row.3, url: row.4, body: Array(row.5), signature: row.6,
            createdAt: Date(unixMilliseconds: row.7), attempts: row.8, state: state, lastError: row.10)
    }
}

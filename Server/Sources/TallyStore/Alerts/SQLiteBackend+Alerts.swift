import Foundation
import GRDB

extension SQLiteBackend {
    func alertRules(app: AppID) async throws -> [StoredAlertRule] {
        try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT name, metric, condition, webhook, secret, created_at FROM alert_rule WHERE app_id = ? ORDER BY name",
                arguments: [app.rawValue]
            ).map { StoredAlertRule(name: $0[0], metric: $0[1], condition: $0[2], webhook: $0[3], secret: $0[4], createdAt: $0[5]) }
        }
    }

    func saveAlertRule(_ rule: StoredAlertRule, app: AppID, maximum: Int) async throws {
        // One writer at a time: the count and the insert see the same rows.
        try await pool.write { db in
            guard try App.fetch(db, id: app) != nil else { throw TallyStoreError.unknownApp(app) }
            let others = try Int.fetchOne(
                db, sql: "SELECT count(*) FROM alert_rule WHERE app_id = ? AND name <> ?", arguments: [app.rawValue, rule.name])
            guard (others ?? 0) < maximum else { throw TallyStoreError.tooManyAlertRules(app) }
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO alert_rule (app_id, name, metric, condition, webhook, secret, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [app.rawValue, rule.name, rule.metric, rule.condition, rule.webhook, rule.secret, rule.createdAt])
        }
    }

    func deleteAlertRule(app: AppID, name: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM alert_rule WHERE app_id = ? AND name = ?", arguments: [app.rawValue, name])
            return db.changesCount > 0
        }
    }

    func record(_ evaluation: AlertEvaluation, app: AppID, delivery: DeliveryDraft?, maximumPending: Int) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO alert_evaluation (app_id, rule, at, day, metric, condition, value, previous, fired, ends_day)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                    """,
                arguments: [
                    app.rawValue, evaluation.rule, evaluation.at.unixMilliseconds, evaluation.day, evaluation.metric,
                    evaluation.condition, evaluation.value, evaluation.previous, evaluation.fired, evaluation.endsDay,
                ])
            guard db.changesCount > 0 else { return false }
            guard let delivery else { return true }
            try db.execute(
                sql: """
                    INSERT INTO webhook_delivery (app_id, rule, delivery_id, url, body, signature, created_at, next_attempt_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    app.rawValue, delivery.rule, delivery.deliveryID, delivery.url, Data(delivery.body), delivery.signature,
                    delivery.createdAt, delivery.createdAt,
                ])
            try db.execute(
                sql: """
                    UPDATE webhook_delivery SET state = ?, last_error = 'the outbox was full'
                    WHERE state = 0 AND id <= (SELECT id FROM webhook_delivery WHERE state = 0 ORDER BY id DESC LIMIT 1 OFFSET ?)
                    """,
                arguments: [WebhookDelivery.State.dropped.rawValue, maximumPending])
            return true
        }
    }

    func alertEvaluations(app: AppID, firedOnly: Bool, limit: Int) async throws -> [AlertEvaluation] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT rule, at, day, ends_day, metric, condition, value, previous, fired FROM alert_evaluation
                    WHERE app_id = ? AND (fired OR NOT ?) ORDER BY at DESC, rule LIMIT ?
                    """,
                arguments: [app.rawValue, firedOnly, limit]
            ).map { row in
                AlertEvaluation(
                    rule: row[0], at: Date(unixMilliseconds: row[1]), day: row[2], endsDay: row[3], metric: row[4], condition: row[5],
                    value: row[6], previous: row[7], fired: row[8])
            }
        }
    }

    func pruneAlerts(before: Int64) async throws {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM alert_evaluation WHERE at < ?", arguments: [before])
            try db.execute(sql: "DELETE FROM webhook_delivery WHERE state <> 0 AND created_at < ?", arguments: [before])
        }
    }

    func claimDeliveries(now: Int64, lease: Int64, limit: Int, perApp: Int, excluding: [AppID]) async throws -> [WebhookDelivery] {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE webhook_delivery SET state = ?, last_error = ? WHERE state NOT IN \(Self.knownStates)",
                arguments: [WebhookDelivery.State.gaveUp.rawValue, Self.unknownStateError])
            let claimed = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.deliveryColumns) FROM webhook_delivery WHERE id IN (
                        SELECT id FROM (
                            SELECT id, next_attempt_at, row_number() OVER (PARTITION BY app_id ORDER BY next_attempt_at, id) AS rank
                            FROM webhook_delivery
                            WHERE state = 0 AND next_attempt_at <= ? AND app_id NOT IN (\(databaseQuestionMarks(count: excluding.count))))
                        WHERE rank <= ? ORDER BY next_attempt_at, id LIMIT ?)
                    ORDER BY next_attempt_at, id
                    """,
                arguments: StatementArguments([now] + excluding.map(\.rawValue) + [Int64(perApp), Int64(limit)])
            ).compactMap(Self.delivery(row:))
            for delivery in claimed {
                try db.execute(sql: "UPDATE webhook_delivery SET next_attempt_at = ? WHERE id = ?", arguments: [now + lease, delivery.id])
            }
            return claimed
        }
    }

    func finishAttempt(id: Int64, attempts: Int, state: WebhookDelivery.State, nextAttemptAt: Int64, error: String?) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE webhook_delivery SET attempts = ?, state = ?, next_attempt_at = ?, last_error = ? WHERE id = ?",
                arguments: [attempts, state.rawValue, nextAttemptAt, error, id])
        }
    }

    func deliveries(app: AppID, limit: Int) async throws -> [WebhookDelivery] {
        try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(Self.deliveryColumns) FROM webhook_delivery WHERE app_id = ? ORDER BY id DESC LIMIT ?",
                arguments: [app.rawValue, limit]
            ).compactMap(Self.delivery(row:))
        }
    }

    /// The columns ``delivery(row:)`` reads, in order.
    static let deliveryColumns = "id, app_id, rule, delivery_id, url, body, signature, created_at, attempts, state, last_error"

    /// A delivery of a row selected with ``deliveryColumns``; `nil` for one in a state the
    /// store does not write, which the next claim gives up.
    static func delivery(row: Row) -> WebhookDelivery? {
        guard let state = WebhookDelivery.State(rawValue: row[9]) else { return nil }
        let url: String = row[4]
        let body: Data = row[5]
        return WebhookDelivery(
            id: row[0], app: AppID(rawValue: row[1]), rule: row[2], deliveryID: row[3], url: url, body: Array(body), signature: row[6],
            createdAt: Date(unixMilliseconds: row[7]), attempts: row[8], state: state, lastError: row[10])
    }
}

import Foundation

/// A backend's alert rules made in the dashboard, their evaluations and the webhook outbox.
protocol AlertBackend: Sendable {
    /// The rules stored for `app`, by name in code point order.
    func alertRules(app: AppID) async throws -> [StoredAlertRule]

    /// Stores `rule` for `app`, replacing the one of that name; throws
    /// ``TallyStoreError/unknownApp(_:)``, or ``TallyStoreError/tooManyAlertRules(_:)`` when
    /// `app` has `maximum` rules of other names, checked and written atomically.
    func saveAlertRule(_ rule: StoredAlertRule, app: AppID, maximum: Int) async throws

    /// Deletes `app`'s rule `name`; returns whether there was one.
    func deleteAlertRule(app: AppID, name: String) async throws -> Bool

    /// Records `evaluation` unless one of the same app, rule and time is recorded already, and
    /// with it, in the same transaction, queues `delivery`; then marks the oldest pending
    /// deliveries beyond `maximumPending` dropped. Returns whether this call recorded it.
    func record(_ evaluation: AlertEvaluation, app: AppID, delivery: DeliveryDraft?, maximumPending: Int) async throws -> Bool

    /// `app`'s latest `limit` evaluations (only those that fired if `firedOnly`), newest first.
    func alertEvaluations(app: AppID, firedOnly: Bool, limit: Int) async throws -> [AlertEvaluation]

    /// Deletes evaluations before `before` and finished deliveries queued before it.
    func pruneAlerts(before: Int64) async throws

    /// Gives up the deliveries in a state ``WebhookDelivery/State`` does not name, then takes
    /// up to `limit` pending deliveries due at `now`, oldest first, at most `perApp` of each
    /// app and none of `excluding`'s, and moves their next attempt to `now + lease`, so that
    /// no other process takes them meanwhile.
    func claimDeliveries(now: Int64, lease: Int64, limit: Int, perApp: Int, excluding: [AppID]) async throws -> [WebhookDelivery]

    /// Records an attempt of delivery `id`: its new attempt count, state, next attempt and error.
    func finishAttempt(id: Int64, attempts: Int, state: WebhookDelivery.State, nextAttemptAt: Int64, error: String?) async throws

    /// `app`'s latest `limit` deliveries, newest first.
    func deliveries(app: AppID, limit: Int) async throws -> [WebhookDelivery]
}

/// A rule as the `alert_rule` table holds it.
struct StoredAlertRule: Sendable {
    var name: String
    var metric: String
    var condition: String
    var webhook: String
    var secret: String
    var createdAt: Int64
}

/// A delivery to queue with the evaluation that fired it.
struct DeliveryDraft: Sendable {
    var rule: String
    var deliveryID: String
    var url: String
    var body: [UInt8]
    var signature: String
    var createdAt: Int64
}

extension AlertBackend {
    /// The states ``WebhookDelivery/State`` names, as an SQL list: `(0, 1, 2, 3)`.
    static var knownStates: String { "(\(WebhookDelivery.State.allCases.map { String($0.rawValue) }.joined(separator: ", ")))" }

    /// Why a delivery in a state the store does not write was given up.
    static var unknownStateError: String { "the delivery's state was not valid" }
}

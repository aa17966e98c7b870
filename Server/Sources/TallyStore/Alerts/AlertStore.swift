public import Foundation
public import TallyEvent

/// Alert rules, their evaluations and the webhook outbox of the alerts they fire. Reached as ``EventStore/alerts``.
public struct AlertStore: Sendable {
    let store: EventStore
    var backend: any StoreBackend { store.backend }
}

extension EventStore {
    /// Alert rules, evaluations and webhook deliveries.
    public var alerts: AlertStore { AlertStore(store: self) }
}

extension AlertStore {
    /// The most deliveries the outbox keeps pending; a newer one drops the oldest unsent.
    public static let maximumPendingDeliveries = 10_000
    /// How long evaluations and finished deliveries are kept: 35 days, in seconds.
    public static let alertRetention: TimeInterval = 35 * 86_400

    /// The rules made in the dashboard for `app`, by name; none for an unknown app. A stored
    /// rule that no longer parses is left out.
    public func rules(app: AppID) async throws -> [AlertRule] {
        try await backend.alertRules(app: app.production).compactMap { row in
            guard let metric = try? AlertMetric(parsing: row.metric), let condition = try? AlertCondition(parsing: row.condition) else {
                return nil
            }
            return try? AlertRule(name: row.name, metric: metric, condition: condition, webhook: row.webhook, secret: row.secret)
        }
    }

    /// Stores `rule` for `app`, replacing its rule of that name.
    ///
    /// - Throws: ``TallyStoreError/unknownApp(_:)``, ``TallyStoreError/tooManyAlertRules(_:)``
    ///   when the app keeps ``AlertRule/maximumPerApp`` others, or a database error.
    public func save(_ rule: AlertRule, app: AppID) async throws {
        let stored = StoredAlertRule(
            name: rule.name, metric: rule.metric.description, condition: rule.condition.description, webhook: rule.webhook.absoluteString,
            secret: rule.secret, createdAt: Date().unixMilliseconds)
        try await backend.saveAlertRule(stored, app: app.production, maximum: AlertRule.maximumPerApp)
    }

    /// Deletes `app`'s stored rule `name`; returns whether there was one.
    @discardableResult
    public func delete(app: AppID, name: String) async throws -> Bool {
        try await backend.deleteAlertRule(app: app.production, name: name.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The value of `metric` for `app` on the local `day` of the app's time zone, computed
    /// as the metrics routes compute it (see ``AlertMetric``).
    ///
    /// - Throws: ``TallyStoreError/invalidAlertRule(_:)`` for a segment the app has not saved,
    ///   and the errors of ``MetricStore/day(_:)`` and ``MetricStore/funnel(_:window:breakdown:in:)``.
    public func value(of metric: AlertMetric, app: AppID, day: CalendarDay) async throws -> Double {
        let scope = ReadScope(app: app, day: day)
        switch metric {
        case .headline(let headline):
            let figures = try await store.metrics.day(scope)
            switch headline {
            case .dau: return Double(figures.dau)
            case .wau: return Double(figures.wau)
            case .mau: return Double(figures.mau)
            case .newUsers: return Double(figures.newUsers)
            case .events: return Double(figures.events.values.reduce(0, +))
            }
        case .event(let name):
            return Double(try await store.metrics.day(scope).events[name] ?? 0)
        case .segment(let name):
            guard let segment = try await store.segments.saved(app: app).first(where: { $0.name == name }) else {
                throw TallyStoreError.invalidAlertRule("the app has no saved segment named \"\(name.prefix(64))\"")
            }
            return Double(try await store.metrics.day(ReadScope(app: app, day: day, filter: segment.filter)).dau)
        case .funnel(let steps):
            let funnel = try await store.metrics.funnel(steps, in: scope)
            guard let first = funnel.steps.first?.users, first > 0, let last = funnel.steps.last?.users else { return 0 }
            return Double(last) / Double(first) * 100
        }
    }

    /// Evaluates `rule` for `app` at `slot`: its metric's value on the slot's day and, for a
    /// `change` condition, on the same weekday a week earlier. `nil` when the slot does not
    /// check this condition: a `change` is checked at the end of a day only (``AlertSchedule``).
    public func evaluate(_ rule: AlertRule, app: AppID, at slot: AlertSchedule.Slot) async throws -> AlertEvaluation? {
        if rule.condition.comparesWithLastWeek && !slot.endsDay { return nil }
        let value = try await value(of: rule.metric, app: app, day: slot.day)
        var previous: Double?
        if rule.condition.comparesWithLastWeek { previous = try await self.value(of: rule.metric, app: app, day: slot.day.advanced(by: -7)) }
        return AlertEvaluation(
            rule: rule.name, at: slot.at, day: slot.day.description, endsDay: slot.endsDay, metric: rule.metric.description,
            condition: rule.condition.description, value: value, previous: previous,
            fired: rule.condition.holds(for: value, previous: previous))
    }

    /// Records `evaluation` of `rule` for `app`, once: of several collectors recording the same
    /// rule and time, only the first records it. If it fired, the same transaction queues its
    /// webhook POST (``WebhookDelivery``), signed with the rule's secret, so a restart loses no
    /// notification. Returns whether this call recorded it.
    @discardableResult
    public func record(_ evaluation: AlertEvaluation, of rule: AlertRule, app: App, now: Date) async throws -> Bool {
        var delivery: DeliveryDraft?
        if evaluation.fired {
            let body = WebhookBody(evaluation: evaluation, app: app).json()
            delivery = DeliveryDraft(
                rule: rule.name, deliveryID: UUID().uuidString.lowercased(), url: rule.webhook.absoluteString, body: body,
                signature: WebhookSignature.header(body: body, secret: rule.secret), createdAt: now.unixMilliseconds)
        }
        return try await backend.record(evaluation, app: app.id.production, delivery: delivery, maximumPending: Self.maximumPendingDeliveries)
    }

    /// `app`'s latest `limit` evaluations, newest first; only those that fired if `firedOnly`.
    public func evaluations(app: AppID, firedOnly: Bool = false, limit: Int = 50) async throws -> [AlertEvaluation] {
        try await backend.alertEvaluations(app: app.production, firedOnly: firedOnly, limit: max(0, limit))
    }

    /// Deletes evaluations, and deliveries no longer pending, older than ``alertRetention`` at `now`.
    public func prune(now: Date) async throws {
        try await backend.pruneAlerts(before: now.addingTimeInterval(-Self.alertRetention).unixMilliseconds)
    }

    /// Takes up to `limit` pending deliveries due at `now`, oldest first, at most `perApp` of
    /// each app and none of the apps in `excluding`, and keeps other processes off them for
    /// `lease` seconds: report each attempt with ``finishAttempt(_:state:nextAttempt:error:)``
    /// within that time, or it is taken again. A row in a state the store does not write is
    /// given up first, so that no row stays in the outbox forever.
    public func claimDueDeliveries(
        now: Date, lease: TimeInterval, limit: Int, perApp: Int = .max, excluding: Set<AppID> = []
    ) async throws -> [WebhookDelivery] {
        try await backend.claimDeliveries(
            now: now.unixMilliseconds, lease: Int64(lease * 1000), limit: max(0, limit), perApp: max(0, perApp),
            excluding: Array(excluding))
    }

    /// Records an attempt at `delivery`: its new state and, when still pending, its next attempt.
    public func finishAttempt(_ delivery: WebhookDelivery, state: WebhookDelivery.State, nextAttempt: Date, error: String?) async throws {
        try await backend.finishAttempt(
            id: delivery.id, attempts: min(delivery.attempts, .max - 1) + 1,
            state: state, nextAttemptAt: nextAttempt.unixMilliseconds, error: error.map { String($0.prefix(500)) })
    }

    /// `app`'s latest `limit` deliveries, newest first.
    public func deliveries(app: AppID, limit: Int = 50) async throws -> [WebhookDelivery] {
        try await backend.deliveries(app: app.production, limit: max(0, limit))
    }
}

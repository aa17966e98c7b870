public import Foundation
public import Logging
public import TallyStore

/// Sends the outbox's webhook POSTs (``WebhookDelivery``) and retries failures with
/// exponential backoff for an hour.
///
/// Each POST carries the body queued when the rule fired, `Content-Type: application/json`,
/// `X-Tally-Signature: sha256=<hex HMAC-SHA256 of the body with the rule's secret>`,
/// `X-Tally-Delivery` (a UUID, the same on every attempt, so receivers can drop repeats)
/// and `X-Tally-Timestamp` (when it was queued, in seconds since 1970). A 2xx answer delivers
/// it; anything else, or no answer, is retried after ``retryDelay(afterAttempt:)`` unless
/// that passes ``givingUpAfter`` from its queueing, when it is given up (recorded, with the
/// reason). A delivery that cannot be attempted (its stored URL fails
/// ``AlertRule/webhookURL(_:)``) is given up at once. The reason recorded, which the app's
/// members see, is a ``WebhookFailure/reason``; the log keeps its detail.
///
/// Each delivery is attempted on its own, at most ``maximumInFlight`` at once and
/// ``maximumInFlightPerApp`` of one app, so that a slow receiver holds its app's slots only.
/// The outbox is in the database: a restart resumes what was pending, and collectors sharing
/// PostgreSQL take different deliveries (``AlertStore/claimDueDeliveries(now:lease:limit:perApp:excluding:)``).
public struct WebhookDeliverer: Sendable {
    /// The store whose outbox this sends.
    public let store: EventStore
    /// What POSTs.
    public let transport: any WebhookTransport
    /// The clock of attempts and backoff.
    public let clock: any AlertClock
    /// Where failures go.
    public let logger: Logger

    /// How long after queueing a delivery is given up: one hour.
    public static let givingUpAfter: TimeInterval = 3_600
    /// The first retry's delay; each next one doubles, up to ``longestRetryDelay``.
    public static let firstRetryDelay: TimeInterval = 10
    /// The longest delay between two attempts.
    public static let longestRetryDelay: TimeInterval = 600
    /// The most deliveries attempted at once.
    public static let maximumInFlight = 16
    /// The most deliveries of one app attempted at once.
    public static let maximumInFlightPerApp = 4
    /// How long a claimed delivery is kept from other collectors: longer than an attempt lasts.
    static let lease: TimeInterval = 60
    /// How often the outbox is read when idle.
    static let pollInterval: TimeInterval = 1

    /// Creates a deliverer.
    public init(
        store: EventStore, transport: any WebhookTransport = HTTPWebhookTransport(), clock: any AlertClock = SystemAlertClock(),
        logger: Logger = Logger(label: "tally.webhooks")
    ) {
        self.store = store
        self.transport = transport
        self.clock = clock
        self.logger = logger
    }

    /// The delay before the attempt after attempt `attempt` (1 for the first): 10 s, 20 s,
    /// 40 s, … doubling up to ten minutes.
    public static func retryDelay(afterAttempt attempt: Int) -> TimeInterval {
        let exponent = min(max(attempt, 1), 17) - 1
        return min(firstRetryDelay * Double(1 << exponent), longestRetryDelay)
    }

    /// Sends until the task is cancelled: claims due deliveries whenever a slot is free and
    /// attempts each on its own, and reads the outbox every second when idle. An app with a
    /// delivery in flight is claimed for again once all of its own have finished, so that it
    /// never holds more than ``maximumInFlightPerApp`` slots.
    public func run() async throws {
        await withTaskGroup(of: AppID?.self) { group in
            // Owned by this loop alone: the apps with deliveries in flight, and how many.
            var inFlight: [AppID: Int] = [:]
            var sleeping = false
            while !Task.isCancelled {
                let room = Self.maximumInFlight - inFlight.values.reduce(0, +)
                if room > 0 {
                    for delivery in await claim(limit: room, excluding: Set(inFlight.keys)) {
                        inFlight[delivery.app, default: 0] += 1
                        group.addTask {
                            await attempt(delivery)
                            return delivery.app
                        }
                    }
                }
                if !sleeping {
                    sleeping = true
                    group.addTask {
                        try? await clock.sleep(until: clock.now.addingTimeInterval(Self.pollInterval))
                        return nil
                    }
                }
                switch await group.next() {
                case .some(.some(let app)): inFlight[app] = inFlight[app].flatMap { $0 > 1 ? $0 - 1 : nil }
                case .some(.none): sleeping = false
                case .none: return
                }
            }
            group.cancelAll()
        }
        try Task.checkCancellation()
    }

    /// One pass: claims the deliveries due now (up to ``maximumInFlight``, and
    /// ``maximumInFlightPerApp`` of one app), attempts them at once and records each outcome.
    /// Returns how many were attempted.
    @discardableResult
    public func deliverDue() async -> Int {
        let due = await claim(limit: Self.maximumInFlight, excluding: [])
        await withTaskGroup(of: Void.self) { group in
            for delivery in due { group.addTask { await attempt(delivery) } }
        }
        return due.count
    }

    /// The due deliveries, at most `limit` and ``maximumInFlightPerApp`` of an app, none of
    /// `excluding`'s; none if the outbox cannot be read.
    private func claim(limit: Int, excluding: Set<AppID>) async -> [WebhookDelivery] {
        do {
            return try await store.alerts.claimDueDeliveries(
                now: clock.now, lease: Self.lease, limit: limit, perApp: Self.maximumInFlightPerApp, excluding: excluding)
        } catch is CancellationError {
            return []  // shutting down
        } catch {
            logger.error("webhooks: cannot read the outbox: \(error)")
            return []
        }
    }

    /// Attempts `delivery` once and records the outcome.
    func attempt(_ delivery: WebhookDelivery) async {
        let headers = [
            (name: "Content-Type", value: "application/json"), (name: "X-Tally-Signature", value: delivery.signature),
            (name: "X-Tally-Delivery", value: delivery.deliveryID),
            (name: "X-Tally-Timestamp", value: String(Int64(delivery.createdAt.timeIntervalSince1970))),
        ]
        var failure: WebhookFailure?
        do {
            let status = try await transport.post(to: WebhookFailure.checkedURL(delivery.url), body: delivery.body, headers: headers)
            if !(200..<300).contains(status) { failure = .answered(status) }
        } catch let error as WebhookFailure {
            failure = error
        } catch {
            failure = .noAnswer("\(error)")
        }
        let (state, next) = Self.outcome(of: delivery, failure: failure, at: clock.now)
        if let failure {
            logger.warning("webhooks: delivery \(delivery.deliveryID) of rule \"\(delivery.rule)\" failed: \(failure.reason): \(failure.detail)")
        }
        do {
            try await store.alerts.finishAttempt(delivery, state: state, nextAttempt: next, error: failure?.reason)
        } catch {
            // The lease runs out and the delivery is attempted again: a receiver may see it twice.
            logger.error("webhooks: cannot record delivery \(delivery.deliveryID): \(error)")
        }
    }

    /// What an attempt at `delivery` that ended at `now` with `failure` (none: delivered)
    /// makes of it: delivered; pending until the next attempt of the backoff; or given up,
    /// for a final failure or when that attempt would pass ``givingUpAfter``.
    static func outcome(of delivery: WebhookDelivery, failure: WebhookFailure?, at now: Date) -> (state: WebhookDelivery.State, next: Date) {
        guard let failure else { return (.delivered, now) }
        let next = now.addingTimeInterval(retryDelay(afterAttempt: min(delivery.attempts, .max - 1) + 1))
        if failure.isFinal || next.timeIntervalSince(delivery.createdAt) > givingUpAfter { return (.gaveUp, next) }
        return (.pending, next)
    }
}

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
/// last error). The outbox is in the database: a restart resumes what was pending, and
/// collectors sharing PostgreSQL take different deliveries (``EventStore/claimDueDeliveries(now:lease:limit:)``).
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
    /// How long a claimed delivery is kept from other collectors: longer than an attempt lasts.
    static let lease: TimeInterval = 60
    /// The most deliveries one pass takes, and sends at once.
    static let batch = 16
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
        let exponent = min(max(attempt - 1, 0), 16)
        return min(firstRetryDelay * Double(1 << exponent), longestRetryDelay)
    }

    /// Sends until the task is cancelled, reading the outbox every second.
    public func run() async throws {
        while true {
            let sent = await deliverDue()
            if sent < Self.batch { try await clock.sleep(until: clock.now.addingTimeInterval(Self.pollInterval)) }
            try Task.checkCancellation()
        }
    }

    /// One pass: claims the deliveries due now (up to 16), attempts them at once and records
    /// each outcome. Returns how many were attempted.
    @discardableResult
    public func deliverDue() async -> Int {
        let due: [WebhookDelivery]
        do {
            due = try await store.claimDueDeliveries(now: clock.now, lease: Self.lease, limit: Self.batch)
        } catch {
            logger.error("webhooks: cannot read the outbox: \(error)")
            return 0
        }
        await withTaskGroup(of: Void.self) { group in
            for delivery in due { group.addTask { await attempt(delivery) } }
        }
        return due.count
    }

    /// Attempts `delivery` once and records the outcome.
    func attempt(_ delivery: WebhookDelivery) async {
        let headers = [
            (name: "Content-Type", value: "application/json"), (name: "X-Tally-Signature", value: delivery.signature),
            (name: "X-Tally-Delivery", value: delivery.deliveryID),
            (name: "X-Tally-Timestamp", value: String(Int64(delivery.createdAt.timeIntervalSince1970))),
        ]
        var failure: String?
        do {
            let status = try await transport.post(to: delivery.url, body: delivery.body, headers: headers)
            if !(200..<300).contains(status) { failure = "the webhook answered \(status)" }
        } catch {
            failure = "\(error)"
        }
        let now = clock.now
        var state = WebhookDelivery.State.delivered
        var next = now
        if let failure {
            next = now.addingTimeInterval(Self.retryDelay(afterAttempt: delivery.attempts + 1))
            state = next.timeIntervalSince(delivery.createdAt) > Self.givingUpAfter ? .gaveUp : .pending
            logger.warning("webhooks: delivery \(delivery.deliveryID) of rule \"\(delivery.rule)\" failed: \(failure)")
        }
        do {
            try await store.finishAttempt(delivery, state: state, nextAttempt: next, error: failure)
        } catch {
            // The lease runs out and the delivery is attempted again: a receiver may see it twice.
            logger.error("webhooks: cannot record delivery \(delivery.deliveryID): \(error)")
        }
    }
}

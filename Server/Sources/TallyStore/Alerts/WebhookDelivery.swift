public import Foundation

/// A webhook POST in the outbox (`webhook_delivery`): queued in the transaction that records
/// its firing, so a restart resumes it, and sent until it succeeds or an hour has passed.
public struct WebhookDelivery: Hashable, Sendable {
    /// Where it is in its life.
    public enum State: Int, CaseIterable, Sendable {
        /// Waiting for its next attempt.
        case pending = 0
        /// A 2xx answer came back.
        case delivered = 1
        /// Every attempt for an hour failed.
        case gaveUp = 2
        /// Dropped unsent: the outbox held ``AlertStore/maximumPendingDeliveries`` newer ones.
        case dropped = 3
    }

    /// The row's id.
    public var id: Int64
    /// The app whose rule fired.
    public var app: AppID
    /// The rule's name.
    public var rule: String
    /// A UUID sent as `X-Tally-Delivery`, the same on every attempt.
    public var deliveryID: String
    /// The webhook's URL as queued: a row may hold any text, so each attempt checks it again
    /// (``AlertRule/webhookURL(_:)``).
    public var url: String
    /// The JSON body.
    public var body: [UInt8]
    /// `X-Tally-Signature`: `sha256=` and the hex HMAC-SHA256 of `body` with the rule's secret.
    public var signature: String
    /// When it was queued.
    public var createdAt: Date
    /// Attempts made so far.
    public var attempts: Int
    /// Its state.
    public var state: State
    /// Why the last attempt failed.
    public var lastError: String?
}

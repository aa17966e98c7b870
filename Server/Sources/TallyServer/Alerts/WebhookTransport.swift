public import Foundation
import TallyStore

/// What sends a webhook POST: ``HTTPWebhookTransport``, or a test's.
public protocol WebhookTransport: Sendable {
    /// POSTs `body` with `headers` to `url` and returns the answer's status code; throws when
    /// no answer came (refused, timed out, closed), preferably a ``WebhookFailure``.
    func post(to url: URL, body: [UInt8], headers: [(name: String, value: String)]) async throws -> Int
}

/// Why a webhook POST failed: ``reason`` is what the app's members see in the alerts sheet,
/// and says nothing of the server's network (no address, name lookup or connection error);
/// ``detail`` is for the server's log only.
public struct WebhookFailure: Error, Hashable, CustomStringConvertible {
    /// The failure in words any member of the app may read.
    public var reason: String
    /// What the log keeps: the names, addresses and errors behind ``reason``.
    public var detail: String
    /// Whether no later attempt can succeed, so that the delivery is given up at once.
    public var isFinal: Bool

    /// Creates a failure.
    public init(reason: String, detail: String, isFinal: Bool = false) {
        self.reason = reason
        self.detail = detail
        self.isFinal = isFinal
    }

    public var description: String { "\(reason) (\(detail))" }

    /// The webhook's URL fails ``AlertRule/webhookURL(_:)``: no attempt can be made.
    public static func invalidURL(_ detail: String) -> Self {
        Self(reason: "the webhook's URL is not valid", detail: detail, isFinal: true)
    }

    /// The webhook's host is not allowed, has no address, or only addresses the server does
    /// not post to: one reason for all, so that members cannot map the server's network.
    public static func notAllowed(_ detail: String) -> Self {
        Self(reason: "the webhook's address is not allowed or not found", detail: detail)
    }

    /// No answer came: refused, timed out, closed, or the TLS handshake failed.
    public static func noAnswer(_ detail: String) -> Self {
        Self(reason: "the webhook did not answer", detail: detail)
    }

    /// The answer's status was not 2xx.
    public static func answered(_ status: Int) -> Self {
        Self(reason: "the webhook answered \(status)", detail: "status \(status)")
    }

    /// `text` as a webhook URL (``AlertRule/webhookURL(_:)``), checked before every attempt
    /// since an outbox row may hold anything.
    static func checkedURL(_ text: String) throws(WebhookFailure) -> URL {
        do {
            return try AlertRule.webhookURL(text)
        } catch {
            throw .invalidURL("\(error.description): \(text.prefix(200))")
        }
    }
}

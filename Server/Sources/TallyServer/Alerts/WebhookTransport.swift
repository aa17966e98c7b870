public import Foundation

/// What sends a webhook POST: ``HTTPWebhookTransport``, or a test's.
public protocol WebhookTransport: Sendable {
    /// POSTs `body` with `headers` to `url` and returns the answer's status code; throws when
    /// no answer came (refused, timed out, closed).
    func post(to url: URL, body: [UInt8], headers: [(name: String, value: String)]) async throws -> Int
}

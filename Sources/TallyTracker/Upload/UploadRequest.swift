public import Foundation
import TallyEvent

/// An HTTP request built by the tracker for a ``Transport`` to send.
public struct UploadRequest: Sendable, Hashable {
    /// The full URL, `{endpoint}/v1/events`.
    public var url: URL
    /// The HTTP method; always `POST` for uploads.
    public var method: String
    /// Header fields: `X-App-Key`, `Content-Type`, and `Content-Encoding` when the body is gzip-compressed.
    public var headers: [String: String]
    /// The body, exactly as it goes on the wire (possibly gzip-compressed).
    public var body: Data

    /// Creates a request.
    public init(url: URL, method: String = "POST", headers: [String: String] = [:], body: Data = Data()) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
    }
}

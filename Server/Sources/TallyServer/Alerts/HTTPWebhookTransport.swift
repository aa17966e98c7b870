import AsyncHTTPClient
public import Foundation
public import NIOCore

/// POSTs webhooks with AsyncHTTPClient, TLS for `https` (the system's trust roots).
///
/// Guarded against misuse: `http` and `https` only, a connection and an answer within
/// ``timeout``, no redirect followed (a 3xx is the answer, which the deliverer counts as a
/// failure), and only the answer's status read: its body is dropped unread.
public struct HTTPWebhookTransport: WebhookTransport {
    /// How long a POST may take, from connecting to its answer's head.
    public var timeout: TimeAmount

    /// Creates a transport.
    public init(timeout: TimeAmount = .seconds(10)) {
        self.timeout = timeout
    }

    /// Why a POST was not sent.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The client every transport shares, for the life of the process: it follows no redirect.
    private static let client = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10), read: .seconds(10))))

    public func post(to url: URL, body: [UInt8], headers: [(name: String, value: String)]) async throws -> Int {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else {
            throw Failure(description: "not an http or https URL with a host")
        }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "User-Agent", value: "Tally-Webhooks/1")
        for header in headers { request.headers.add(name: header.name, value: header.value) }
        request.body = .bytes(body)
        let response = try await Self.client.execute(request, timeout: timeout)
        return Int(response.status.code)
    }
}

import AsyncHTTPClient
public import Foundation
public import NIOCore
import NIOPosix
import TallyHTTP

/// POSTs webhooks with AsyncHTTPClient, TLS for `https` (the system's trust roots).
///
/// Guarded against misuse: `http` and `https` only, a connection and an answer within
/// ``timeout``, no redirect followed (a 3xx is the answer, which the deliverer counts as a
/// failure), and only the answer's status read: its body is dropped unread. Unless
/// ``allowsPrivateAddresses``, a POST goes to a public address only: the host's name is
/// resolved first, the address checked (``IPAddress/isPublic``), and the connection made to
/// that address (the certificate still checked for the name), so that a name answering
/// another address the second time cannot lead the POST inside.
public struct HTTPWebhookTransport: WebhookTransport {
    /// How long a POST may take, from connecting to its answer's head.
    public var timeout: TimeAmount
    /// Whether a webhook may be on a loopback, private, link-local or other non-public
    /// address (`tally serve --allow-private-webhooks`). Off by default: an app's editor, who
    /// writes its alert rules, cannot make the server POST to the services beside it.
    public var allowsPrivateAddresses: Bool

    /// Creates a transport.
    public init(timeout: TimeAmount = .seconds(10), allowsPrivateAddresses: Bool = false) {
        self.timeout = timeout
        self.allowsPrivateAddresses = allowsPrivateAddresses
    }

    /// Why a POST was not sent.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The client of the POSTs to any address, for the life of the process: it follows no
    /// redirect.
    private static let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)

    private static var configuration: HTTPClient.Configuration {
        HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10), read: .seconds(10)))
    }

    public func post(to url: URL, body: [UInt8], headers: [(name: String, value: String)]) async throws -> Int {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else {
            throw Failure(description: "not an http or https URL with a host")
        }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "User-Agent", value: "Tally-Webhooks/1")
        for header in headers { request.headers.add(name: header.name, value: header.value) }
        request.body = .bytes(body)
        if allowsPrivateAddresses { return Int(try await Self.client.execute(request, timeout: timeout).status.code) }

        let address = try await Self.publicAddress(of: host, port: url.port ?? (scheme == "https" ? 443 : 80))
        // A client of its own, whose name lookup of the host answers the address checked.
        var configuration = Self.configuration
        configuration.dnsOverride = [host: address.description]
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let status = try await client.execute(request, timeout: timeout).status.code
            try await client.shutdown()
            return Int(status)
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// The address `host` resolves to (the system's first answer), if public.
    private static func publicAddress(of host: String, port: Int) async throws -> IPAddress {
        let resolved = try await NIOThreadPool.singleton.runIfActive { try SocketAddress.makeAddressResolvingHost(host, port: port) }
        guard let text = resolved.ipAddress, let address = IPAddress(text) else {
            throw Failure(description: "\(host) resolves to no IP address")
        }
        guard address.isPublic else {
            throw Failure(
                description: "\(host) is at \(address), which is not a public address (tally serve --allow-private-webhooks allows it)")
        }
        return address
    }
}

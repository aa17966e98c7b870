import AsyncHTTPClient
public import Foundation
public import NIOCore
import NIOPosix
public import TallyHTTP

/// POSTs webhooks with AsyncHTTPClient, TLS for `https` (the system's trust roots).
///
/// Guarded against misuse: the URL checked again before each POST (``target(of:)``), so that
/// no stored value reaches the client unchecked; a host on ``allowedHosts`` only, if any;
/// a connection and an answer within ``timeout``, no redirect followed (a 3xx is the answer,
/// which the deliverer counts as a failure), and only the answer's status read: its body is
/// dropped unread. Unless ``allowsPrivateAddresses``, a POST goes to a public address that is
/// not one of the server's own (``localAddresses``) only: the host's name is resolved first,
/// the address checked, and the connection made to that address (the certificate still
/// checked for the name), so that a name answering another address the second time cannot
/// lead the POST inside. Failures are ``WebhookFailure``s, whose reasons name no address.
public struct HTTPWebhookTransport: WebhookTransport {
    /// How long a POST may take, from connecting to its answer's head.
    public var timeout: TimeAmount
    /// Whether a webhook may be on a loopback, private, link-local or other non-public
    /// address, or one of the server's own (`tally serve --allow-private-webhooks`). Off by
    /// default: an app's editor, who writes its alert rules, cannot make the server POST to
    /// the services beside it, or to those on its own addresses that a firewall keeps from
    /// the internet.
    public var allowsPrivateAddresses: Bool
    /// The hosts webhooks may go to, in lower case, each with its subdomains
    /// (`tally serve --webhook-hosts`); empty, any host.
    public var allowedHosts: [String]
    /// The server's own addresses, every interface's, read before each POST; its error refuses
    /// the POST.
    public var localAddresses: @Sendable () throws -> Set<IPAddress>

    /// Creates a transport.
    public init(
        timeout: TimeAmount = .seconds(10), allowsPrivateAddresses: Bool = false, allowedHosts: [String] = [],
        localAddresses: @escaping @Sendable () throws -> Set<IPAddress> = { try HTTPWebhookTransport.interfaceAddresses() }
    ) {
        self.timeout = timeout
        self.allowsPrivateAddresses = allowsPrivateAddresses
        self.allowedHosts = allowedHosts.map { $0.lowercased() }
        self.localAddresses = localAddresses
    }

    /// The addresses of the machine's network interfaces.
    public static func interfaceAddresses() throws -> Set<IPAddress> {
        Set(try System.enumerateDevices().compactMap { $0.address?.ipAddress.flatMap { IPAddress($0) } })
    }

    /// The client of the POSTs to any address, for the life of the process: it follows no
    /// redirect.
    private static let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)

    private static var configuration: HTTPClient.Configuration {
        HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10), read: .seconds(10)))
    }

    /// The host and port a POST to `url` connects to: checked without any networking, as the
    /// HTTP client will read them (``AlertRule/webhookURL(_:)``), and the host against
    /// ``allowedHosts``.
    ///
    /// - Throws: ``WebhookFailure/invalidURL(_:)`` or ``WebhookFailure/notAllowed(_:)``.
    public func target(of url: URL) throws(WebhookFailure) -> (host: String, port: Int) {
        let checked = try WebhookFailure.checkedURL(url.absoluteString)
        guard let host = checked.host?.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), !host.isEmpty else {
            throw .invalidURL("no host: \(url.absoluteString.prefix(200))")
        }
        let name = host.lowercased()
        guard allowedHosts.isEmpty || allowedHosts.contains(where: { name == $0 || name.hasSuffix("." + $0) }) else {
            throw .notAllowed("\(name.prefix(200)) is not a host of --webhook-hosts")
        }
        return (host, checked.port ?? (checked.scheme?.lowercased() == "https" ? 443 : 80))
    }

    public func post(to url: URL, body: [UInt8], headers: [(name: String, value: String)]) async throws -> Int {
        let (host, port) = try target(of: url)
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "User-Agent", value: "Tally-Webhooks/1")
        for header in headers { request.headers.add(name: header.name, value: header.value) }
        request.body = .bytes(body)
        do {
            if allowsPrivateAddresses { return Int(try await Self.client.execute(request, timeout: timeout).status.code) }
            let address = try await allowedAddress(of: host, port: port)
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
        } catch let failure as WebhookFailure {
            throw failure
        } catch {
            throw WebhookFailure.noAnswer("\(host.prefix(200)):\(port): \(error)")
        }
    }

    /// The address `host` resolves to (the system's first answer), if public and not one of
    /// the server's own.
    private func allowedAddress(of host: String, port: Int) async throws(WebhookFailure) -> IPAddress {
        let resolved: SocketAddress
        do {
            resolved = try await NIOThreadPool.singleton.runIfActive { try SocketAddress.makeAddressResolvingHost(host, port: port) }
        } catch {
            throw .notAllowed("\(host.prefix(200)) does not resolve: \(error)")
        }
        guard let text = resolved.ipAddress, let address = IPAddress(text) else {
            throw .notAllowed("\(host.prefix(200)) resolves to no IP address")
        }
        guard address.isPublic else {
            throw .notAllowed("\(host.prefix(200)) is at \(address), not a public address (tally serve --allow-private-webhooks allows it)")
        }
        let own: Set<IPAddress>
        do {
            own = try localAddresses()
        } catch {
            throw .notAllowed("the server's own addresses cannot be read: \(error)")
        }
        guard !own.contains(address) else {
            throw .notAllowed("\(host.prefix(200)) is at \(address), one of the server's own addresses")
        }
        return address
    }
}

public import Hummingbird

/// Who sent a request, as far as the server can tell: the address limits are counted by,
/// and whether it comes from this host.
public struct ClientAddress: Hashable, Sendable {
    /// The client's address (see ``TrustedProxies/client(peer:headers:)``).
    public let address: IPAddress
    /// Whether the request comes from this host (see ``TrustedProxies/isLocal(peer:headers:)``).
    public let isLocal: Bool

    /// The client of `request`, whose connection's peer `context` knows, through `proxies`;
    /// `nil` when the context does not know its peer (a test's, say).
    public init?(of request: Request, context: some RequestContext, proxies: TrustedProxies) {
        guard let text = (context as? any RemoteAddressRequestContext)?.remoteAddress?.ipAddress, let peer = IPAddress(text) else {
            return nil
        }
        address = proxies.client(peer: peer, headers: request.headers)
        isLocal = proxies.isLocal(client: address, peer: peer, headers: request.headers)
    }
}

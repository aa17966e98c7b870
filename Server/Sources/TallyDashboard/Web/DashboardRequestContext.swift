public import Hummingbird
public import HummingbirdWebSocket
public import NIOCore

/// The request context of the dashboard's application: a WebSocket-capable context that
/// knows the client's address (sign-in attempts are limited per address).
public struct DashboardRequestContext: RequestContext, WebSocketRequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<Self>
    /// The client's address.
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        remoteAddress = source.channel.remoteAddress
    }
}

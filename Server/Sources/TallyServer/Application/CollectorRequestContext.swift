public import Hummingbird
public import NIOCore
import TallyHTTP

/// The request context of ``TallyServer/router()``: it knows the client's address, which
/// ingest is rate-limited by (see ``ServerSettings/addressRateLimit``).
///
/// Routes added to another router with ``TallyServer/addRoutes(to:)`` limit by address when
/// that router's context is a `RemoteAddressRequestContext` too.
public struct CollectorRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The client's address.
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

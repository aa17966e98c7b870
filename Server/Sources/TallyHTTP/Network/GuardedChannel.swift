public import HummingbirdCore
public import Logging
public import NIOCore
import NIOHTTP1

/// A server's child channel (HTTP/1, with or without WebSocket upgrades) with the limits of
/// ``ServerSettings`` that the channel itself does not have:
/// - a client address holds at most ``ServerSettings/maximumConnectionsPerAddress``
///   connections (trusted proxies excepted): one more is answered 503 and closed at once;
/// - each connection has a ``ConnectionGuard``: request heads within
///   ``ServerSettings/requestHeadTimeout``, and refused heads answered with their status;
/// - what is logged as an error about a connection that ended before its first request is
///   logged at `debug` (see ``ConnectionLogHandler``).
public struct GuardedChannel<Base: ServerChildChannel>: ServerChildChannel {
    public typealias Value = Base.Value

    let base: Base
    let connections: AddressConnections
    let proxies: TrustedProxies
    let headTimeout: TimeAmount

    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        if let text = channel.remoteAddress?.ipAddress, let peer = IPAddress(text), !proxies.contains(peer) {
            guard connections.open(peer) else {
                let answer = "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\nContent-Length: 0\r\n\r\n"
                channel.writeAndFlush(channel.allocator.buffer(string: answer), promise: nil)
                channel.close(promise: nil)
                return channel.eventLoop.makeFailedFuture(TooManyConnections())
            }
            channel.closeFuture.whenComplete { [connections] _ in connections.close(peer) }
        }
        return base.setup(channel: channel, logger: logger).flatMapThrowing { [headTimeout] value in
            let operations = channel.pipeline.syncOperations
            let connectionGuard = ConnectionGuard(headTimeout: headTimeout)
            try operations.addHandler(connectionGuard, position: .first)
            let decoder = try operations.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try operations.addHandler(RequestHeadWatcher(connectionGuard: connectionGuard), position: .after(decoder.handler))
            return value
        }
    }

    public func handle(value: Value, logger: Logger) async {
        // What goes wrong with a connection that ended before its first request is not logged
        // as an error (see ConnectionLogHandler).
        var logger = logger
        let channel = value.channel
        if let unserved = try? await channel.eventLoop.submit({ try channel.pipeline.syncOperations.handler(type: ConnectionGuard.self).unserved })
            .get()
        {
            logger.handler = ConnectionLogHandler(base: logger.handler, unserved: unserved)
        }
        await base.handle(value: value, logger: logger)
    }

    /// The address already holds its share of connections.
    struct TooManyConnections: Error {}
}

extension ServerSettings {
    /// A server of the child channels `makeChannel` makes, each a ``GuardedChannel``, for
    /// `Application(router:server:…)`:
    ///
    /// ```swift
    /// Application(router: router, server: configuration.server { HTTP1Channel(responder: $0, configuration: configuration.http1) })
    /// ```
    public func server<Base: ServerChildChannel>(
        _ makeChannel: @escaping @Sendable (@escaping HTTPChannelHandler.Responder) throws -> Base
    ) -> HTTPServerBuilder {
        let connections = AddressConnections(limit: maximumConnectionsPerAddress)
        let (proxies, headTimeout) = (trustedProxies, TimeAmount.nanoseconds(Int64(requestHeadTimeout * 1e9)))
        return HTTPServerBuilder { responder in
            GuardedChannel(base: try makeChannel(responder), connections: connections, proxies: proxies, headTimeout: headTimeout)
        }
    }
}

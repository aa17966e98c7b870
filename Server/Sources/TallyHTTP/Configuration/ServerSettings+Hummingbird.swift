public import Hummingbird
public import HummingbirdCore
public import Logging

extension ServerSettings {
    /// The HTTP/1 settings of a server with this configuration: the idle timeout and the
    /// request head's limits.
    public var http1: HTTP1Channel.Configuration {
        .init(
            idleTimeout: .nanoseconds(Int64(idleTimeout * 1e9)),
            httpDecoderConfiguration: .init(
                maxHeaderFieldSize: maximumHeaderBytes, maxHeaderListSize: maximumHeaderBytes, maxHeaderFieldCount: maximumHeaderFields)
        )
    }

    /// The application settings of a server with this configuration: its address, its name,
    /// its listen backlog and the connection limit; `logger` hears when the limit is reached.
    public func application(logger: Logger) -> ApplicationConfiguration {
        .init(
            address: .hostname(host, port: port), serverName: "tally", backlog: Self.listenBacklog,
            availableConnectionsDelegate: .maximum(maximumConnections, logger: logger)
        )
    }

    /// The queue of connections the kernel holds until the server accepts them (Linux caps it
    /// at `net.core.somaxconn`, 4,096 by default). With Hummingbird's 256, one host opening
    /// connections in a burst fills the queue between two accepts and the kernel drops every
    /// other host's connection attempts, which retry after a second: measured with 20,000
    /// connections from one address, a `/healthz` from another took up to 1.03 s with 256.
    static let listenBacklog = 4_096
}

public import Hummingbird
public import HummingbirdCore
public import Logging

extension ServerConfiguration {
    /// The HTTP/1 settings of a server with this configuration: the idle timeout and the
    /// request head's limits.
    public var http1: HTTP1Channel.Configuration {
        .init(
            idleTimeout: .nanoseconds(Int64(idleTimeout * 1e9)),
            httpDecoderConfiguration: .init(
                maxHeaderFieldSize: maximumHeaderBytes, maxHeaderListSize: maximumHeaderBytes, maxHeaderFieldCount: maximumHeaderFields)
        )
    }

    /// The application settings of a server with this configuration: its address, its name
    /// and the connection limit; `logger` hears when the limit is reached.
    public func application(logger: Logger) -> ApplicationConfiguration {
        .init(
            address: .hostname(host, port: port), serverName: "tally",
            availableConnectionsDelegate: .maximum(maximumConnections, logger: logger)
        )
    }
}

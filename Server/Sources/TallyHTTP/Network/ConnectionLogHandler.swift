import Logging
import Synchronization

/// The log handler of one connection's handling: what is logged at `error` or above after
/// the connection ended before its first request (closed by its client, or refused by its
/// ``ConnectionGuard``) is logged at `debug` instead. Such a connection is no fault of the
/// server's, and an attacker opening thousands must not fill the log: Hummingbird's WebSocket
/// channel logs an error for each ("Error handling upgrade result").
struct ConnectionLogHandler: LogHandler {
    /// Set once the connection ended before its first request.
    final class Unserved: Sendable {
        private let flag = Atomic(false)

        /// Whether the connection ended before its first request.
        var value: Bool { flag.load(ordering: .acquiring) }

        /// Marks the connection.
        func set() { flag.store(true, ordering: .releasing) }
    }

    var base: any LogHandler
    let unserved: Unserved

    func log(event: LogEvent) {
        var event = event
        if event.level >= .error, unserved.value {
            guard base.logLevel <= .debug else { return }
            event.level = .debug
        }
        base.log(event: event)
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { base.metadataProvider }
        set { base.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }
}

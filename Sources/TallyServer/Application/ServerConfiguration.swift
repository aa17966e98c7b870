public import Foundation
public import Logging

/// How often one app may send events; see ``ServerConfiguration/rateLimit``.
public struct RateLimit: Sendable, Hashable {
    /// Events per second an app may send on average.
    public var eventsPerSecond: Double
    /// Events an app may send at once after a quiet period.
    public var burst: Int

    /// Creates a limit of `eventsPerSecond` on average with bursts of `burst` events.
    public init(eventsPerSecond: Double, burst: Int) {
        self.eventsPerSecond = eventsPerSecond
        self.burst = burst
    }
}

/// The collector's settings. The defaults are the HTTP contract's limits.
public struct ServerConfiguration: Sendable {
    /// The address to listen on.
    public var host = "127.0.0.1"
    /// The port to listen on; 0 picks a free one (see ``TallyServer/run(onRunning:)``).
    public var port = 8080
    /// The most events one batch may hold (413 above).
    public var maximumBatchEvents = 1_000
    /// The largest body, after decompression (413 above).
    public var maximumBodyBytes = 1 << 20
    /// How far ahead of the server's clock a skew-corrected event may be.
    public var maximumFutureSkew: TimeInterval = 600
    /// The per-app ingest rate; `nil` for none. The default allows 20,000 events per
    /// second with bursts of 100,000.
    public var rateLimit: RateLimit? = RateLimit(eventsPerSecond: 20_000, burst: 100_000)
    /// The least severe messages the server logs.
    public var logLevel: Logger.Level = .warning
    /// The server's clock; tests inject their own.
    public var now: @Sendable () -> Date = { Date() }

    /// The defaults.
    public init() {}
}

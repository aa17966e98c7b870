public import Foundation
public import Logging

/// How often one app or one address may send events; see ``ServerSettings/rateLimit``
/// and ``ServerSettings/addressRateLimit``.
///
/// Both numbers must be positive (and the rate finite); ``TallyServer/init(store:configuration:bus:)``
/// refuses a configuration whose limit is not.
public struct RateLimit: Sendable, Hashable {
    /// Events per second one app or address may send on average.
    public var eventsPerSecond: Double
    /// Events one app or address may send at once after a quiet period.
    public var burst: Int

    /// Creates a limit of `eventsPerSecond` on average with bursts of `burst` events.
    public init(eventsPerSecond: Double, burst: Int) {
        self.eventsPerSecond = eventsPerSecond
        self.burst = burst
    }
}

/// The collector's settings. The defaults are the HTTP contract's limits.
///
/// `TallyServer(store:settings:)` checks them (see ``validate()``), so a
/// setting of zero or less is refused when the server is made, not met by a request.
public struct ServerSettings: Sendable {
    /// The address to listen on.
    public var host = "127.0.0.1"
    /// The port to listen on; 0 picks a free one (the tests' and the benchmarks' servers do).
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
    /// The ingest rate of one client address, over all apps; `nil` for none. The default
    /// allows 2,000 events per second with bursts of 20,000: many devices behind one network
    /// address, not a flood from one host. Loopback clients are not limited by address: a
    /// reverse proxy on the same host speaks for every client.
    public var addressRateLimit: RateLimit? = RateLimit(eventsPerSecond: 2_000, burst: 20_000)
    /// How many wrong or missing ingest keys one client address may send (loopback
    /// excepted, as for ``addressRateLimit``): by default 20 at once, then one every 2 seconds.
    /// Past it the address is refused with 429 before its body is read, so that guessing keys
    /// on routes whose key is in the body costs the server no more than the refusal.
    public var wrongKeyLimit = RateLimit(eventsPerSecond: 0.5, burst: 20)
    /// The most connections served at once; more wait in the listen queue until one closes.
    public var maximumConnections = 10_000
    /// The most connections one client address may hold open (a trusted proxy's excepted);
    /// one more is answered 503 and closed, so that one host cannot take every connection.
    public var maximumConnectionsPerAddress = 256
    /// How long a client has to send a whole request head: from opening its connection for
    /// the first, from the first byte for each later one. Past it the server answers 408 and
    /// closes the connection.
    public var requestHeadTimeout: TimeInterval = 10
    /// The reverse proxies whose forwarding header names the client (see ``TrustedProxies``);
    /// none by default, so every request comes from its connection's peer.
    public var trustedProxies = TrustedProxies()
    /// How long a connection may stay silent between requests until the server closes it.
    public var idleTimeout: TimeInterval = 60
    /// The largest request head: every header field together, in bytes. Above it the request
    /// is refused and its connection closed.
    public var maximumHeaderBytes = 16 * 1024
    /// The most header fields one request may have; above it, as for ``maximumHeaderBytes``.
    public var maximumHeaderFields = 100
    /// The bearer token that opens `GET /metrics` to clients off this host; `nil` (the
    /// default) leaves it to loopback clients only. At least 16 characters.
    public var metricsToken: String?
    /// The least severe messages the server logs.
    public var logLevel: Logger.Level = .warning
    /// Whether alert webhooks may go to loopback, private, link-local and other non-public
    /// addresses; off by default, so that an app's editor cannot make the server POST to the
    /// services beside it.
    public var allowsPrivateWebhooks = false
    /// The bounds of costly reads (funnels, paths, retention, breakdowns, timelines, dashboard
    /// reports): how many run at once, per reader and in all, and how long one may take
    /// before it is answered 503 (see ``ReadAdmission``).
    public var reads = ReadAdmission.Limits()
    /// The hosts alert webhooks may go to, each with its subdomains; empty (the default), any
    /// host the other checks allow.
    public var webhookHosts: [String] = []
    /// The server's clock; tests inject their own.
    public var now: @Sendable () -> Date = { Date() }

    /// The defaults.
    public init() {}

    /// Checks every limit: the port is 0 to 65,535, the batch, body, header and connection
    /// limits and both numbers of each rate limit are positive, and the allowed clock skew and
    /// the timeouts are finite numbers of seconds (the skew zero or more, the timeouts above
    /// zero and at most a day), and the read bounds are positive (the reads' deadline at most
    /// an hour).
    ///
    /// - Throws: ``ConfigurationError`` naming the first setting out of range.
    public func validate() throws(ConfigurationError) {
        guard (0...65_535).contains(port) else { throw ConfigurationError(setting: "port", value: "\(port)", expected: "0 to 65535") }
        guard maximumFutureSkew.isFinite, maximumFutureSkew >= 0 else {
            throw ConfigurationError(setting: "maximumFutureSkew", value: "\(maximumFutureSkew)", expected: "a finite number of seconds, 0 or more")
        }
        for (setting, value) in [
            ("maximumBatchEvents", maximumBatchEvents), ("maximumBodyBytes", maximumBodyBytes),
            ("maximumConnections", maximumConnections), ("maximumConnectionsPerAddress", maximumConnectionsPerAddress),
            ("maximumHeaderBytes", maximumHeaderBytes),
            ("maximumHeaderFields", maximumHeaderFields),
        ] where value <= 0 {
            throw ConfigurationError(setting: setting, value: "\(value)", expected: "a positive number")
        }
        for (setting, value) in [("idleTimeout", idleTimeout), ("requestHeadTimeout", requestHeadTimeout)]
        where !(value.isFinite && value > 0 && value <= 86_400) {
            throw ConfigurationError(setting: setting, value: "\(value)", expected: "more than 0 and at most 86400 seconds")
        }
        if let metricsToken, metricsToken.count < 16 || metricsToken.utf8.count > 256 {
            throw ConfigurationError(setting: "metricsToken", value: "\(metricsToken.count) characters", expected: "16 to 256 bytes")
        }
        for (setting, value) in [("reads.running", reads.running), ("reads.runningPerReader", reads.runningPerReader)] where value <= 0 {
            throw ConfigurationError(setting: setting, value: "\(value)", expected: "a positive number")
        }
        guard reads.waitingPerReader >= 0 else {
            throw ConfigurationError(setting: "reads.waitingPerReader", value: "\(reads.waitingPerReader)", expected: "0 or more")
        }
        guard reads.deadline > .zero, reads.deadline <= .seconds(3_600) else {
            throw ConfigurationError(setting: "reads.deadline", value: "\(reads.deadline)", expected: "more than 0 and at most 3600 seconds")
        }
        try rateLimit?.validate(as: "rateLimit")
        try addressRateLimit?.validate(as: "addressRateLimit")
        try wrongKeyLimit.validate(as: "wrongKeyLimit")
    }
}

extension RateLimit {
    /// Checks that both numbers are positive and the rate finite.
    ///
    /// - Throws: ``ConfigurationError`` naming `setting` and the number out of range.
    func validate(as setting: String) throws(ConfigurationError) {
        guard eventsPerSecond.isFinite, eventsPerSecond > 0 else {
            throw ConfigurationError(setting: "\(setting).eventsPerSecond", value: "\(eventsPerSecond)", expected: "a finite positive number")
        }
        guard burst > 0 else {
            throw ConfigurationError(setting: "\(setting).burst", value: "\(burst)", expected: "a positive number")
        }
    }
}

public import TallyHTTP

/// How much one user may ask of the live sockets: how many they open, and how many messages
/// they send over all of them (each may reload a report). Past either budget the server
/// refuses, with the wait: an opened socket with 429, a message with an error the page shows.
public struct SocketLimits: Sendable, Hashable {
    /// Sockets opened per user: by default 30 at once, then one every 2 seconds.
    public var opened = RateLimit(eventsPerSecond: 0.5, burst: 30)
    /// Messages per user, over all their sockets: by default 40 at once, then 5 a second.
    public var messages = RateLimit(eventsPerSecond: 5, burst: 40)

    /// The defaults.
    public init() {}
}

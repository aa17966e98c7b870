import Componentry
import Foundation
import TallyStore

/// A token bucket per app, counted in events: each app may send ``RateLimit/eventsPerSecond``
/// events per second on average, and up to ``RateLimit/burst`` at once.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: Date
    }

    private let limit: RateLimit
    private let buckets = Locked<[AppID: Bucket]>([:])

    init(limit: RateLimit) {
        self.limit = limit
    }

    /// The longest wait ``take(_:for:at:)`` asks for, whatever the configured rate: a day.
    static let maximumWait = 86_400.0

    /// Takes `events` tokens from `app`'s bucket; if there are too few, takes none and
    /// returns how many whole seconds to wait, from 1 to ``maximumWait``.
    func take(_ events: Int, for app: AppID, at now: Date) -> Int? {
        buckets.withLock { buckets in
            var bucket = buckets[app] ?? Bucket(tokens: Double(limit.burst), updated: now)
            let elapsed = max(0, now.timeIntervalSince(bucket.updated))
            bucket.tokens = min(Double(limit.burst), bucket.tokens + elapsed * limit.eventsPerSecond)
            bucket.updated = now
            let cost = Double(min(events, limit.burst))
            defer { buckets[app] = bucket }
            guard bucket.tokens >= cost else {
                return Int(min(Self.maximumWait, max(1, ((cost - bucket.tokens) / limit.eventsPerSecond).rounded(.up))))
            }
            bucket.tokens -= cost
            return nil
        }
    }
}

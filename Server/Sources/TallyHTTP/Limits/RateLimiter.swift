public import Foundation
import Locking

/// A token bucket per key (an app, a client's address), counted in events: each key may send
/// ``RateLimit/eventsPerSecond`` events per second on average, and up to ``RateLimit/burst``
/// at once.
///
/// At most `capacity` buckets are kept, so a stream of new keys (addresses) cannot grow it
/// without end: a full bucket is the same as none and goes first, then the least recently
/// used half.
///
/// ```swift
/// let limiter = RateLimiter<String>(limit: RateLimit(eventsPerSecond: 5, burst: 20))
/// if let wait = limiter.take(1, for: "ana", at: Date()) { print("retry in \(wait) s") }
/// ```
public final class RateLimiter<Key: Hashable & Sendable>: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: Date
    }

    private let limit: RateLimit
    private let capacity: Int
    private let buckets = Locked<[Key: Bucket]>([:])

    /// A limiter of `limit` per key that keeps at most `capacity` buckets.
    public init(limit: RateLimit, capacity: Int = 100_000) {
        self.limit = limit
        self.capacity = max(1, capacity)
    }

    /// The longest wait ``take(_:for:at:)`` asks for, whatever the configured rate: a day.
    public static var maximumWait: Double { 86_400 }

    /// How many buckets are kept.
    var count: Int { buckets.withLock(\.count) }

    /// Takes `events` tokens from `key`'s bucket; if there are too few, takes none and
    /// returns how many whole seconds to wait, from 1 to ``maximumWait``.
    public func take(_ events: Int, for key: Key, at now: Date) -> Int? {
        buckets.withLock { buckets in
            if buckets[key] == nil, buckets.count >= capacity { evict(from: &buckets, at: now) }
            var bucket = buckets[key].map { refilled($0, at: now) } ?? Bucket(tokens: Double(limit.burst), updated: now)
            let cost = Double(min(events, limit.burst))
            defer { buckets[key] = bucket }
            guard bucket.tokens >= cost else {
                return Int(min(Self.maximumWait, max(1, ((cost - bucket.tokens) / limit.eventsPerSecond).rounded(.up))))
            }
            bucket.tokens -= cost
            return nil
        }
    }

    /// How many whole seconds `key` must wait before ``take(_:for:at:)`` of one token can
    /// succeed, or `nil` if it can now; takes nothing.
    public func wait(for key: Key, at now: Date) -> Int? {
        buckets.withLock { buckets in
            guard let bucket = buckets[key].map({ refilled($0, at: now) }), bucket.tokens < 1 else { return nil }
            return Int(min(Self.maximumWait, max(1, ((1 - bucket.tokens) / limit.eventsPerSecond).rounded(.up))))
        }
    }

    private func refilled(_ bucket: Bucket, at now: Date) -> Bucket {
        let elapsed = max(0, now.timeIntervalSince(bucket.updated))
        return Bucket(tokens: min(Double(limit.burst), bucket.tokens + elapsed * limit.eventsPerSecond), updated: now)
    }

    /// Drops the buckets that have refilled, then, if that frees nothing, the least
    /// recently used half.
    private func evict(from buckets: inout [Key: Bucket], at now: Date) {
        buckets = buckets.filter { refilled($0.value, at: now).tokens < Double(limit.burst) }
        guard buckets.count >= capacity else { return }
        let newest = buckets.sorted { $0.value.updated > $1.value.updated }.prefix(capacity / 2)
        buckets = Dictionary(uniqueKeysWithValues: newest.map { ($0.key, $0.value) })
    }
}

import Foundation
import Locking

/// Failed sign-ins per address and per user name, to slow down password guessing: after
/// ``limit`` failures within ``window``, further attempts are refused until the oldest of
/// them leaves the window.
///
/// The table is bounded: whenever it holds more than ``capacity`` keys, keys whose failures
/// have all left the window are dropped, and if guessing from more keys than that keeps it
/// full of fresh ones, the older half goes (at once, so the cost is amortized).
final class FailedSignIns: Sendable {
    /// Failures allowed within ``window`` before attempts are refused.
    static let limit = 5
    /// How long a failure counts.
    static let window: TimeInterval = 15 * 60
    /// Keys held before stale ones are dropped.
    static let capacity = 4_096

    private let failures = Locked<[String: [Date]]>([:])

    /// Seconds to wait before `keys` may try again, or `nil` when they may now.
    func wait(for keys: [String], at now: Date) -> Int? {
        failures.withLock { failures in
            let waits = keys.compactMap { key -> TimeInterval? in
                let recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < Self.window }
                guard recent.count >= Self.limit, let oldest = recent.first else { return nil }
                return Self.window - now.timeIntervalSince(oldest)
            }
            return waits.max().map { max(1, Int($0.rounded(.up))) }
        }
    }

    /// Counts a failure for each of `keys`.
    func record(_ keys: [String], at now: Date) {
        failures.withLock { failures in
            for key in keys {
                var recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < Self.window }
                recent.append(now)
                failures[key] = Array(recent.suffix(Self.limit))
            }
            guard failures.count > Self.capacity else { return }
            failures = failures.filter { $0.value.contains { now.timeIntervalSince($0) < Self.window } }
            guard failures.count > Self.capacity else { return }
            let newest = failures.sorted { ($0.value.last ?? now) > ($1.value.last ?? now) }.prefix(Self.capacity / 2)
            failures = Dictionary(uniqueKeysWithValues: newest.map { ($0.key, $0.value) })
        }
    }

    /// Forgets the failures of `keys`, after a successful sign-in.
    func reset(_ keys: [String]) {
        failures.withLock { failures in for key in keys { failures[key] = nil } }
    }

    /// Keys held; for tests of the bound.
    var count: Int { failures.withLock(\.count) }
}

import Foundation
import Locking

/// Limits password guessing: sign-in attempts are counted per key (a client address, a user
/// name from unknown browsers, one known browser), and a key with ``limit`` failures within
/// ``window`` — attempts still being checked included — is refused until the oldest failure
/// leaves the window.
///
/// An attempt is counted when it begins, before the password is checked: guesses sent
/// together cannot all pass the check while the first of them is still hashing.
///
/// The table is bounded: whenever it holds more than ``capacity`` keys, keys whose failures
/// have all left the window (and that have no attempt in flight) are dropped, and if guessing
/// from more keys than that keeps it full of fresh ones, the older half goes (at once, so the
/// cost is amortized).
final class SignInThrottle: Sendable {
    /// Failures (and attempts in flight) allowed within ``window`` before attempts are refused.
    static let limit = 5
    /// How long a failure counts.
    static let window: TimeInterval = 15 * 60
    /// Keys held before stale ones are dropped.
    static let capacity = 4_096

    /// What attempts are counted by.
    enum Key: Hashable {
        /// Every attempt from a client address, whatever the name.
        case address(String)
        /// Attempts for a name from browsers that hold no device cookie for it.
        case untrusted(name: String)
        /// Attempts from the browser holding the device cookie `nonce`.
        case device(nonce: String)
    }

    /// An attempt that began: hand it back to ``finish(_:succeeded:at:)``.
    struct Attempt {
        fileprivate let keys: [Key]
        fileprivate let name: String
    }

    private struct Failure {
        var at: Date
        /// The name tried, so that a success clears only that name's failures of an address.
        var name: String
    }

    private struct Record {
        var failures: [Failure] = []
        var inFlight = 0

        func recent(at now: Date) -> [Failure] { failures.filter { now.timeIntervalSince($0.at) < SignInThrottle.window } }
    }

    private let records = Locked<[Key: Record]>([:])

    /// Begins an attempt for `name` counted by `keys`, or returns how many seconds to wait
    /// (at least 1) when one of them has no attempt left.
    func begin(_ keys: [Key], name: String, at now: Date) -> Result<Attempt, Wait> {
        records.withLock { records in
            var wait: TimeInterval = 0
            for key in keys {
                let record = records[key] ?? Record()
                let recent = record.recent(at: now)
                let excess = recent.count + record.inFlight - Self.limit + 1
                guard excess > 0 else { continue }
                // Until enough failures leave the window, or, when attempts in flight fill it,
                // until they are checked: a moment.
                let until = excess <= recent.count ? Self.window - now.timeIntervalSince(recent[excess - 1].at) : 1
                wait = max(wait, until, 1)
            }
            if wait > 0 { return .failure(Wait(seconds: Int(wait.rounded(.up)))) }
            for key in keys { records[key, default: Record()].inFlight += 1 }
            Self.bound(&records, at: now)
            return .success(Attempt(keys: keys, name: name))
        }
    }

    /// Ends `attempt`: a failure counts against each of its keys; a success clears the
    /// failures of its device and, of its address, the failures for the same name only.
    func finish(_ attempt: Attempt, succeeded: Bool, at now: Date) {
        records.withLock { records in
            for key in attempt.keys {
                guard var record = records[key] else { continue }  // dropped by the bound meanwhile
                record.inFlight = max(0, record.inFlight - 1)
                if !succeeded {
                    record.failures = Array((record.recent(at: now) + [Failure(at: now, name: attempt.name)]).suffix(Self.limit))
                } else if case .untrusted = key {
                    // Kept: the user's success says nothing of the guesses others made for the name.
                } else {
                    record.failures.removeAll { $0.name == attempt.name }
                }
                records[key] = record
            }
            Self.bound(&records, at: now)
        }
    }

    private static func bound(_ records: inout [Key: Record], at now: Date) {
        guard records.count > capacity else { return }
        records = records.filter { $0.value.inFlight > 0 || !$0.value.recent(at: now).isEmpty }
        guard records.count > capacity else { return }
        let newest = records.sorted { ($0.value.failures.last?.at ?? now) > ($1.value.failures.last?.at ?? now) }.prefix(capacity / 2)
        records = Dictionary(uniqueKeysWithValues: newest.map { ($0.key, $0.value) })
    }

    /// Keys held; for tests of the bound.
    var count: Int { records.withLock(\.count) }

    /// How long a refused attempt must wait.
    struct Wait: Error {
        /// Whole seconds, at least 1.
        let seconds: Int
    }
}

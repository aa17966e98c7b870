import Foundation

/// Jittered exponential backoff between failed uploads: 1 s after the first failure,
/// doubling per failure up to 5 minutes, each delay drawn from the upper half of its step.
struct Backoff: Sendable {
    /// Seconds.
    var initial: TimeInterval = 1
    /// Seconds.
    var maximum: TimeInterval = 300

    /// The wait in seconds after `failures` consecutive failures (1 or more), given `random` in `0...1`.
    ///
    /// The result lies in `max(initial, step / 2)...step` with `step = min(maximum, initial × 2^(failures − 1))`.
    func delay(afterFailures failures: Int, random: Double) -> TimeInterval {
        let step = min(maximum, initial * Double(1 << min(max(failures - 1, 0), 30)))
        return max(initial, step * (0.5 + 0.5 * min(max(random, 0), 1)))
    }
}

public import Foundation

/// The time the alert services read and wait on: the system's, or a test's.
public protocol AlertClock: Sendable {
    /// The current time.
    var now: Date { get }
    /// Returns at `date` or later; throws `CancellationError` when the task is cancelled.
    func sleep(until date: Date) async throws
}

/// The system's clock.
public struct SystemAlertClock: AlertClock {
    /// Creates the clock.
    public init() {}

    public var now: Date { Date() }

    public func sleep(until date: Date) async throws {
        let seconds = date.timeIntervalSinceNow
        if seconds > 0 { try await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up)))) }
        try Task.checkCancellation()
    }
}

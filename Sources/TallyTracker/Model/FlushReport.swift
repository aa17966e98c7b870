/// What happened to events since the previous ``Tracker/flush()``: a plain value you can
/// log, assert on, or ignore.
///
/// Counts include background uploads, not only the work done by the flush that returns
/// the report, so summing reports over an app run accounts for every tracked event.
public struct FlushReport: Sendable, Hashable {
    /// Events the server acknowledged (accepted or recognised as duplicates).
    public var sent = 0
    /// Events in uploads that failed in a retryable way (network error, 401, 429, 5xx).
    /// They stay queued and are retried with backoff; one event may be counted more than once.
    public var retried = 0
    /// Events given up on, by reason.
    public var dropped: [DropReason: Int] = [:]
    /// Events still in the queue when the report was taken.
    public var pending = 0

    /// The number of dropped events over all reasons.
    public var droppedCount: Int { dropped.values.reduce(0, +) }

    /// Creates an empty report.
    public init() {}
}

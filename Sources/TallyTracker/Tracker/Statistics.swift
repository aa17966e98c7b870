import Componentry

/// The running counts behind ``FlushReport``, shared by every part of the pipeline.
final class Statistics: Sendable {
    private let report = Locked(FlushReport())

    func recordSent(_ count: Int) {
        guard count > 0 else { return }
        report.withLock { $0.sent += count }
    }

    func recordRetried(_ count: Int) {
        guard count > 0 else { return }
        report.withLock { $0.retried += count }
    }

    func recordDropped(_ count: Int, _ reason: DropReason) {
        guard count > 0 else { return }
        report.withLock { $0.dropped[reason, default: 0] += count }
    }

    /// The counts so far, with `pending` filled in; the counts start again from zero.
    func take(pending: Int) -> FlushReport {
        report.withLock { report in
            defer { report = FlushReport() }
            report.pending = pending
            return report
        }
    }
}

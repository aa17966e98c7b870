import Locking

/// The running counts behind ``FlushReport``, shared by every part of the pipeline, and the
/// drops not yet reported to the server.
final class Statistics: Sendable {
    private let report = Locked(FlushReport())
    /// Drops counted since the last delivered upload that carried them: at most one entry per
    /// ``DropReason``.
    private let unreported = Locked<[DropReason: Int]>([:])

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
        // The server counted its own rejections already.
        if reason != .rejectedByServer { unreported.withLock { $0[reason, default: 0] += count } }
    }

    /// The drops to report with the next upload, each count at most `maximum`.
    func unreportedDrops(maximum: Int) -> [DropReason: Int] {
        unreported.withLock { $0.mapValues { min($0, maximum) } }
    }

    /// Forgets `drops` (from ``unreportedDrops(maximum:)``) once an upload carrying them was
    /// delivered; drops counted since stay for the next upload.
    func markReported(_ drops: [DropReason: Int]) {
        unreported.withLock { unreported in
            for (reason, count) in drops {
                let left = unreported[reason, default: 0] - count
                unreported[reason] = left > 0 ? left : nil
            }
        }
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

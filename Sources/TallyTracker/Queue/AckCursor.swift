import Foundation

/// The durable acknowledgement ledger: the position just past the last settled (sent or
/// dropped) event. Everything before it is never read again after a restart.
///
/// Settling is always a prefix of the queue, so one position is the whole ledger. It is
/// stored as `"<segment> <offset>"` and replaced atomically (write, then rename), so a
/// crash leaves either the old or the new position, never a mix.
struct AckCursor: Sendable, Equatable {
    var segment: Int
    var offset: UInt64

    /// Reads the cursor stored at `url`; the start of the queue if there is none.
    init(contentsOf url: URL) {
        let fields = ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: " ")
        if fields.count == 2, let segment = Int(fields[0]), let offset = UInt64(fields[1]) {
            self.init(segment: segment, offset: offset)
        } else {
            self.init(segment: 0, offset: 0)
        }
    }

    init(segment: Int, offset: UInt64) {
        self.segment = segment
        self.offset = offset
    }

    func write(to url: URL) throws {
        try Data("\(segment) \(offset)".utf8).write(to: url, options: .atomic)
    }
}

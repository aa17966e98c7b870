import Foundation
import TallyEvent

/// One event waiting in the ``DiskQueue``: its wire-format JSON line and where that line ends on disk.
struct QueueRecord: Sendable {
    /// Increases by one per record within one queue instance; identifies records across
    /// concurrent acknowledgements and cap drops.
    let sequence: UInt64
    /// The segment file holding the line.
    let segment: Int
    /// The byte offset just past the line's newline in its segment: where the
    /// acknowledgement cursor points once this record is settled.
    let end: UInt64
    /// The event as one JSON object, without the newline.
    let line: Data
    /// When the event was tracked, for the age cap.
    let timestamp: Date
}

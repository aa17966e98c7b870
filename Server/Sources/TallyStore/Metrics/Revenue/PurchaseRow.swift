/// One purchase as the `purchase` rollup keeps it: written by the group commit beside the
/// other rollups (see ``SegmentDelta``), read by ``RollupReader/revenue(dayStarts:)``.
///
/// A row carries the user's number, so that one user's purchases can be found and removed
/// exactly, and the event's segment key, so that filters apply to it without the raw event.
struct PurchaseRow: Hashable, Sendable {
    /// Milliseconds since 1970.
    var timestamp: Int64
    /// The user's number in `app_user`.
    var user: UInt32
    /// The event's segment key number (see ``SegmentDelta``).
    var key: Int64
    /// The currency code (see ``Purchase``).
    var currency: String
    /// The amount in millionths.
    var micros: Int64
}

/// The purchases a revenue computation reads: those of a range, and who paid before it.
struct PurchaseRows: Sendable {
    /// The purchases of the range, ascending by time.
    var rows: [PurchaseRow] = []
    /// The users with a purchase of a positive amount before the range.
    var earlierPayers: Set<UInt32> = []
}

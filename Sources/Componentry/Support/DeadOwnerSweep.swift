/// When to sweep a list for targets whose owner is gone, so such targets are released
/// even when nothing is delivered to them: whenever the number of owned targets has
/// doubled since the last sweep. Each sweep is paid for by the insertions before it
/// (amortized O(1) per insertion), and the list never holds more than twice the owned
/// targets that were live at the last sweep, plus ``minimum``.
struct DeadOwnerSweep {
    static let minimum = 32
    /// Owned targets in the list, live or not.
    private(set) var owned = 0
    private var threshold = DeadOwnerSweep.minimum

    /// Counts an insertion; returns `true` when the caller should sweep now.
    mutating func inserted(_ target: DeliveryTarget) -> Bool {
        guard target.isOwned else { return false }
        owned += 1
        return owned >= threshold
    }

    /// Counts a removal.
    mutating func removed(_ target: DeliveryTarget) {
        if target.isOwned { removedOwned(1) }
    }

    /// Counts the removal of `count` owned targets.
    mutating func removedOwned(_ count: Int) {
        owned -= count
    }

    /// Called after a sweep removed the dead ones.
    mutating func swept() {
        threshold = max(Self.minimum, owned * 2)
    }
}

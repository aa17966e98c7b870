import Synchronization

/// What an ``EventBus`` subscriber and an ``Observable`` observer share: whether it is
/// still live (disposed, owner gone) and how many deliveries to it are running now.
///
/// Every delivery, on the posting thread or queued, goes through ``run(_:)``, which raises
/// the in-flight count *before* it checks the disposed flag. `end()` sets the flag first
/// and then ``waitUntilIdle()`` reads the count, so a delivery either sees the flag and
/// skips, or is counted and waited for. The wait therefore covers exactly the deliveries
/// that can still reach this target — never handlers of other targets that happen to be
/// running in the same post — and never the calling thread's own.
@usableFromInline
class DeliveryTarget: @unchecked Sendable {
    // @unchecked: every stored property is immutable, atomic or a weak reference.

    /// The owner bound with `owner(_:)`; `nil` for targets without one, or once it is gone.
    @usableFromInline weak let owner: AnyObject?
    let isOwned: Bool

    /// Set once, by the first dispose or purge.
    let disposed = Atomic<Bool>(false)
    /// Deliveries running (or about to check the flag) right now.
    private let inFlight = Atomic<Int>(0)

    init(owner: AnyObject?) {
        self.owner = owner
        self.isOwned = owner != nil
    }

    /// `false` once disposed or once its owner is gone.
    final var isAlive: Bool {
        !disposed.load(ordering: .sequentiallyConsistent) && (!isOwned || owner != nil)
    }

    /// `true` if the owner this target was bound to has been deallocated.
    final var ownerIsGone: Bool {
        isOwned && owner == nil
    }

    /// Marks the target ended; returns `true` for the first call only.
    final func end() -> Bool {
        !disposed.exchange(true, ordering: .sequentiallyConsistent)
    }

    /// Runs one delivery unless the target is ended. `body` gets the owner (held strongly
    /// while it runs; `nil` for a target without one) and is not called once the owner is
    /// gone.
    @inline(__always)
    final func run(_ body: (AnyObject?) -> Void) -> DeliveryOutcome {
        inFlight.add(1, ordering: .sequentiallyConsistent)
        defer { inFlight.subtract(1, ordering: .sequentiallyConsistent) }
        guard !disposed.load(ordering: .sequentiallyConsistent) else { return .skipped }
        guard isOwned else {
            DeliveryStack.within(self) { body(nil) }
            return .delivered
        }
        // One weak load both checks the owner and holds it for the handler.
        guard let owner else { return .ownerGone }
        DeliveryStack.within(self) { body(owner) }
        return .delivered
    }

    /// Waits until no other thread is inside a delivery to this target; call after
    /// ``end()``. Deliveries of the calling thread (a handler disposing itself) are not
    /// waited for.
    final func waitUntilIdle() {
        let own = DeliveryStack.depth(in: self)
        var backoff = Backoff()
        while inFlight.load(ordering: .sequentiallyConsistent) > own { backoff.pause() }
    }
}

/// What became of one delivery.
@usableFromInline
enum DeliveryOutcome {
    case delivered
    /// The target was ended.
    case skipped
    /// The target's owner is gone: the caller drops the target.
    case ownerGone
}

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

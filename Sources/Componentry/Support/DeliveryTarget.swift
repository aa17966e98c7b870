import Locking

/// What an ``EventBus`` subscriber and an ``Observable`` observer share: whether it is
/// still live (disposed, owner gone), and the wait that `dispose()` makes for deliveries
/// to it running on other threads.
///
/// Every delivery goes through a ``DeliveryFrame``, which names the target in the calling
/// thread's ``DeliveryThread`` record *before* it reads the disposed flag. ``end()`` sets
/// the flag first and then ``waitUntilIdle()`` reads the records, so a delivery either
/// sees the flag and skips, or is seen and waited for. The wait covers exactly the
/// deliveries that can still reach this target — never handlers of other targets running
/// in the same post — and never the calling thread's own.
@usableFromInline
class DeliveryTarget: @unchecked Sendable {
    // @unchecked: every stored property is immutable, atomic or a weak reference.

    /// The owner bound with `owner(_:)`; `nil` for targets without one, or once it is gone.
    @usableFromInline weak let owner: AnyObject?
    /// The owner's identity, taken while it was alive; `nil` without an owner.
    let ownerID: ObjectIdentifier?
    /// When the target was made, among all targets (see ``DeliveryFrame``).
    let order: UInt64

    /// Set once, by the first dispose or purge.
    let disposed = AtomicWord<Bool>(false)

    private static let nextOrder = AtomicWord<UInt64>(1)

    init(owner: AnyObject?) {
        self.owner = owner
        ownerID = owner.map(ObjectIdentifier.init)
        order = Self.nextOrder.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    final var isOwned: Bool {
        ownerID != nil
    }

    /// What a ``DeliveryThread`` slot holds while this target is being called.
    final var identity: UInt {
        UInt(bitPattern: ObjectIdentifier(self))
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

    /// Runs one delivery outside a pass — queued, a sticky replay, an initial value —
    /// unless the target has ended. `body` gets the owner (held strongly while it runs;
    /// `nil` for a target without one) and is not called once the owner is gone.
    final func run(_ body: (AnyObject?) -> Void) -> DeliveryOutcome {
        var frame = DeliveryFrame()
        return frame.deliver(to: self, body)
    }

    /// Waits until no other thread is inside a delivery to this target; call after
    /// ``end()``. Deliveries of the calling thread (a handler disposing itself) are not
    /// waited for.
    final func waitUntilIdle() {
        let own = DeliveryThread.currentIfAny
        for thread in DeliveryThread.all where thread != own {
            var backoff = Backoff()
            while thread.pointee.anySlot({ $0.target.load(ordering: .sequentiallyConsistent) == identity }) {
                backoff.pause()
            }
        }
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

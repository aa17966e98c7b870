import Dispatch
public import Locking

#if !canImport(Darwin) && !TALLY_PORTABLE_SYNCHRONIZATION
    // On Linux, `AtomicWord`'s orderings are Synchronization's, named in inlinable code.
    public import Synchronization
#endif

/// The part of an ``Observable`` that does not depend on its value type: the lock, the
/// observers, and the bookkeeping that serializes delivery.
///
/// One thread at a time delivers an observable's changes (the *drainer*); a change
/// committed while another is being delivered waits in the observable's queue and is
/// delivered by the drainer after the current one. So every observer hears changes in
/// commit order, no lock is held while observers run, and a set from inside an observer
/// only queues.
@usableFromInline
final class ObservableCore: Sendable {
    /// The observers of one kind, held unmanaged (retained once), so that the drainer
    /// takes them without a retain and release of its own.
    @usableFromInline
    typealias Observers = Unmanaged<TargetList<ObserverNode>>

    @usableFromInline
    struct State: Sendable {
        /// Counts the values stored as current, so a new observer can tell whether it
        /// missed one while it was given the initial value.
        @usableFromInline var version: UInt64 = 0
        @usableFromInline private(set) var willObservers: Observers = TargetList.retained([])
        @usableFromInline private(set) var didObservers: Observers = TargetList.retained([])
        /// Whether will-change observers are linked.
        @usableFromInline private(set) var hasWillObservers = false
        /// The observer list the drainer took last, which it may still be iterating.
        @usableFromInline var taken: UInt = 0
        /// A replaced list that was `taken`, kept alive until the drainer takes another.
        private var replaced: TargetList<ObserverNode>?
        /// Timed commits: a commit is scheduled.
        var timerArmed = false
        /// Timed commits: debounce commits once this has passed; throttle commits no
        /// earlier than this.
        var deadline = DispatchTime(uptimeNanoseconds: 0)
        /// Bounds the observers of dead owners that no change has found.
        var sweep = DeadOwnerSweep()

        /// Hands `observers` to the drainer, which iterates them without the lock.
        @inlinable
        mutating func take(_ observers: Observers) -> Observers {
            taken = UInt(bitPattern: observers.toOpaque())
            return observers
        }

        mutating func insert(_ node: ObserverNode) {
            // A node disposed before it was inserted (by its own initial call) stays out.
            guard !node.disposed.load(ordering: .sequentiallyConsistent) else { return }
            replace(node.kind) { $0 + [node] }
            if sweep.inserted(node) {
                purgeDeadOwners()
                sweep.swept()
            }
        }

        mutating func remove(_ node: ObserverNode) {
            var removed = false
            let without = { (list: [ObserverNode]) -> [ObserverNode] in
                var list = list
                guard let index = list.firstIndex(where: { $0 === node }) else { return list }
                list.remove(at: index)
                removed = true
                return list
            }
            replace(node.kind, without)
            if removed { sweep.removed(node) }
        }

        /// Drops the observers whose owner is gone.
        @usableFromInline
        mutating func purgeDeadOwners() {
            var count = 0
            let live = { (list: [ObserverNode]) -> [ObserverNode] in
                let live = list.filter { !$0.ownerIsGone }
                count += list.count - live.count
                return live
            }
            replace(.willChange, live)
            replace(.didChange, live)
            sweep.removedOwned(count)
        }

        /// Replaces the list of `kind` with `change` of its observers (which adds or removes
        /// some, or returns them as they are); a list the drainer may be iterating is kept
        /// until it takes another.
        private mutating func replace(_ kind: ObserverNode.Kind, _ change: ([ObserverNode]) -> [ObserverNode]) {
            let old = kind == .willChange ? willObservers : didObservers
            let observers = Array(old.takeUnretainedValue().targets)
            let new = change(observers)
            guard new.count != observers.count else { return }
            switch kind {
            case .willChange:
                willObservers = TargetList.retained(new)
                hasWillObservers = !new.isEmpty
            case .didChange:
                didObservers = TargetList.retained(new)
            }
            let dropped = old.takeRetainedValue()
            if UInt(bitPattern: old.toOpaque()) == taken { replaced = dropped }
        }

        /// Observers in the lists, live or not (for tests of the bound).
        var observerCount: Int {
            willObservers.takeUnretainedValue().targets.count + didObservers.takeUnretainedValue().targets.count
        }
    }

    /// Whether a thread is delivering changes: 0 no, 1 yes, 2 yes and changes wait in the
    /// queue. It rises only under the lock; the drainer lowers it from 1 to 0 without the
    /// lock when it finds nothing queued, so a change without a queue takes the lock once.
    @usableFromInline let drain = AtomicWord<Int>(0)

    /// Under the lock: makes the caller the drainer, unless a thread is delivering.
    @inlinable
    func startDraining() -> Bool {
        guard drain.load(ordering: .acquiring) == 0 else { return false }
        drain.store(1, ordering: .relaxed)
        return true
    }

    /// Under the lock, after queueing a change because a thread is delivering: marks the
    /// queue. Returns `false` if the drainer found the queue empty and quit meanwhile: then
    /// the caller is the drainer, and the change it queued is the only one.
    @usableFromInline
    func markQueued() -> Bool {
        var expected = 1
        while true {
            let (marked, found) = drain.compareExchange(expected: expected, desired: 2, ordering: .acquiring)
            if marked || found == 2 { return true }
            if found == 0 {
                drain.store(1, ordering: .relaxed)
                return false
            }
            expected = found
        }
    }

    /// Without the lock, after a change was delivered: stops draining if nothing is queued.
    @inlinable
    func stopDrainingIfNothingQueued() -> Bool {
        drain.compareExchange(expected: 1, desired: 0, ordering: .releasing).exchanged
    }

    /// Under the lock, after the drainer took the next queued change, or found none.
    @usableFromInline
    func tookQueued(leftEmpty: Bool, wasLast: Bool) {
        if wasLast {
            drain.store(0, ordering: .releasing)
        } else if leftEmpty {
            drain.store(1, ordering: .relaxed)
        }
    }

    /// The state, and the lock that also guards the owning observable's values.
    @usableFromInline let state = Locked(State())

    @usableFromInline
    init() {}

    deinit {
        withLock { state in
            state.willObservers.release()
            state.didObservers.release()
        }
    }

    /// Runs `body` with exclusive access to the state; the owning observable's values are
    /// guarded by the same lock.
    @inlinable
    func withLock<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
        state.withLock { body(&$0) }
    }

    /// Calls every live observer in `observers` with the values `new` and `old` point to,
    /// in order, on this thread; returns `true` if one was skipped because its owner is
    /// gone, so the caller purges it under the lock.
    @usableFromInline
    func notify(_ observers: Observers, new: UnsafeRawPointer, old: UnsafeRawPointer) -> Bool {
        var sawDeadOwner = false
        var frame = DeliveryFrame()
        observers._withUnsafeGuaranteedRef { list in
            list.forEach { node in
                if case .ownerGone = node.deliver(new: new, old: old, in: &frame) { sawDeadOwner = true }
            }
        }
        return sawDeadOwner
    }

    /// Ends `node`. When this returns the node's callback is never entered again, except
    /// by the calling thread itself: a delivery to it running on another thread is waited
    /// for — and only such a delivery, not other observers of the same change.
    func remove(_ node: ObserverNode) {
        if node.end() {
            withLock { $0.remove(node) }
        }
        node.waitUntilIdle()
    }

    /// Observers in the lists, live or not (for tests of the bound).
    var observerCount: Int {
        withLock { $0.observerCount }
    }

    /// Adds `node` unless it was disposed already.
    func insert(_ node: ObserverNode) {
        withLock { $0.insert(node) }
    }
}

import Dispatch

/// The part of an ``Observable`` that does not depend on its value type: the lock, the
/// observers, and the bookkeeping that serializes delivery.
///
/// One thread at a time delivers an observable's changes (the *drainer*); a change
/// committed while another is being delivered waits in the observable's queue and is
/// delivered by the drainer after the current one. So every observer sees changes in
/// commit order, no lock is held while observers run, and a set from inside an observer
/// only queues.
@usableFromInline
final class ObservableCore: Sendable {
    @usableFromInline
    struct State: Sendable {
        /// A thread is delivering changes.
        @usableFromInline var draining = false
        /// Counts the values stored as current, so a new observer can tell whether it
        /// missed one while it was given the initial value.
        @usableFromInline var version: UInt64 = 0
        @usableFromInline var willObservers: ContiguousArray<ObserverNode> = []
        @usableFromInline var didObservers: ContiguousArray<ObserverNode> = []
        /// Timed commits: a commit is scheduled.
        var timerArmed = false
        /// Timed commits: debounce commits once this has passed; throttle commits no
        /// earlier than this.
        var deadline = DispatchTime(uptimeNanoseconds: 0)
        /// Bounds the observers of dead owners that no change has found.
        var sweep = DeadOwnerSweep()

        mutating func insert(_ node: ObserverNode) {
            // A node disposed before it was inserted (by its own initial call) stays out.
            guard !node.disposed.load(ordering: .sequentiallyConsistent) else { return }
            switch node.kind {
            case .willChange: willObservers.append(node)
            case .didChange: didObservers.append(node)
            }
            if sweep.inserted(node) {
                purgeDeadOwners()
                sweep.swept()
            }
        }

        mutating func remove(_ node: ObserverNode) {
            let removed = switch node.kind {
            case .willChange: Self.remove(node, from: &willObservers)
            case .didChange: Self.remove(node, from: &didObservers)
            }
            if removed { sweep.removed(node) }
        }

        private static func remove(_ node: ObserverNode, from list: inout ContiguousArray<ObserverNode>) -> Bool {
            guard let index = list.firstIndex(where: { $0 === node }) else { return false }
            list.remove(at: index)
            return true
        }

        /// Drops the observers whose owner is gone.
        @usableFromInline
        mutating func purgeDeadOwners() {
            let count = willObservers.count + didObservers.count
            willObservers.removeAll { $0.ownerIsGone }
            didObservers.removeAll { $0.ownerIsGone }
            sweep.removedOwned(count - willObservers.count - didObservers.count)
        }

        /// Observers in the lists, live or not (for tests of the bound).
        var observerCount: Int {
            willObservers.count + didObservers.count
        }
    }

    private let state = Locked(State())

    @usableFromInline
    init() {}

    /// Runs `body` with exclusive access to the state; the owning observable's values are
    /// guarded by the same lock. Not generic, so that it is specialized here, in the
    /// module: callers write results to their own variables.
    @usableFromInline
    func withLock(_ body: (inout State) -> Void) {
        state.withLock { body(&$0) }
    }

    /// Calls every live observer in `observers` with the values `new` and `old` point to,
    /// in order, on this thread; returns `true` if one was skipped because its owner is
    /// gone, so the caller purges it under the lock.
    @usableFromInline
    func notify(
        _ observers: ContiguousArray<ObserverNode>, new: UnsafeRawPointer, old: UnsafeRawPointer
    ) -> Bool {
        var sawDeadOwner = false
        observers.withUnsafeBufferPointer { nodes in
            for index in nodes.indices {
                // Borrow the node: the list keeps it alive, so no retain.
                Unmanaged.passUnretained(nodes[index])._withUnsafeGuaranteedRef { node in
                    if case .ownerGone = node.deliver(new: new, old: old) { sawDeadOwner = true }
                }
            }
        }
        return sawDeadOwner
    }

    /// Ends `node`. When this returns the node's callback is never entered again, except
    /// by the calling thread itself: a delivery to it running on another thread is waited
    /// for — and only such a delivery, not other observers of the same change.
    func remove(_ node: ObserverNode) {
        if node.end() {
            state.withLock { $0.remove(node) }
        }
        node.waitUntilIdle()
    }

    /// Observers in the lists, live or not (for tests of the bound).
    var observerCount: Int {
        state.withLock { $0.observerCount }
    }

    /// Adds `node` unless it was disposed already.
    func insert(_ node: ObserverNode) {
        state.withLock { $0.insert(node) }
    }
}

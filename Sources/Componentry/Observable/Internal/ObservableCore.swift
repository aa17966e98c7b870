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
        /// Counts the observer lists the drainer has taken, so `dispose()` can wait until
        /// the drainer has moved past the list it was reading.
        @usableFromInline var pass: UInt64 = 0
        @usableFromInline var willObservers: ContiguousArray<ObserverNode> = []
        @usableFromInline var didObservers: ContiguousArray<ObserverNode> = []
        /// Timed commits: a commit is scheduled.
        var timerArmed = false
        /// Timed commits: debounce commits once this has passed; throttle commits no
        /// earlier than this.
        var deadline = DispatchTime(uptimeNanoseconds: 0)

        mutating func insert(_ node: ObserverNode) {
            // A node disposed before it was inserted (by its own initial call) stays out.
            guard !node.disposed.load(ordering: .sequentiallyConsistent) else { return }
            switch node.kind {
            case .willChange: willObservers.append(node)
            case .didChange: didObservers.append(node)
            }
        }

        mutating func remove(_ node: ObserverNode) {
            switch node.kind {
            case .willChange: willObservers.removeAll { $0 === node }
            case .didChange: didObservers.removeAll { $0 === node }
            }
        }

        @usableFromInline
        mutating func purgeDeadOwners() {
            willObservers.removeAll { $0.ownerIsGone }
            didObservers.removeAll { $0.ownerIsGone }
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
        guard !observers.isEmpty else { return false }
        var sawDeadOwner = false
        DeliveryStack.within(self) {
            observers.withUnsafeBufferPointer { nodes in
                for index in nodes.indices {
                    // Borrow the node: the list keeps it alive, so no retain.
                    Unmanaged.passUnretained(nodes[index])._withUnsafeGuaranteedRef { node in
                        if node.isAlive {
                            node.call(new: new, old: old)
                        } else if node.ownerIsGone {
                            sawDeadOwner = true
                        }
                    }
                }
            }
        }
        return sawDeadOwner
    }

    /// Ends `node`. When this returns the node's callback is never entered again, except
    /// by the calling thread itself: a delivery running on another thread is waited for.
    func remove(_ node: ObserverNode) {
        let first = !node.disposed.exchange(true, ordering: .sequentiallyConsistent)
        let (draining, pass) = state.withLock { state in
            if first { state.remove(node) }
            return (state.draining, state.pass)
        }
        var backoff = Backoff()
        // The drainer may be reading a list that still holds the node; once it takes the
        // next list (or stops) it cannot call the node again. Never wait for ourselves.
        if draining && DeliveryStack.depth(in: self) == 0 {
            while state.withLock({ $0.draining && $0.pass == pass }) { backoff.pause() }
        }
        let ownQueued = DeliveryStack.depth(in: node)
        while node.inFlight.load(ordering: .sequentiallyConsistent) > ownQueued { backoff.pause() }
    }

    /// Adds `node` unless it was disposed already.
    func insert(_ node: ObserverNode) {
        state.withLock { $0.insert(node) }
    }
}

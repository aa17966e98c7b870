import Dispatch
import Synchronization

/// One observer of an ``Observable``: its callback, how it wants to be called, and whether
/// it is still live.
///
/// Everything is fixed at creation, so the delivering thread reads a node without the lock.
@usableFromInline
final class ObserverNode: @unchecked Sendable {
    /// Calls the observer with the values two pointers point to: the new value, and the
    /// old one (for will-change and initial calls, the new value again).
    @usableFromInline
    typealias Invoker = @Sendable (ObserverNode, UnsafeRawPointer, UnsafeRawPointer) -> Void

    /// Which moment of a change the observer is called at.
    @usableFromInline
    enum Kind: Sendable {
        case willChange
        case didChange
    }

    /// How the callback wants to be called, with the value type known.
    enum Delivery<Value: Sendable> {
        /// On the thread that delivers the change, through an invoker that reads pointers.
        case posting(Invoker)
        case queue(DispatchQueue, @Sendable (Value, Value) -> Void)
        case mainActor(@MainActor @Sendable (Value, Value) -> Void)
    }

    let kind: Kind
    private let invoke: Invoker
    private weak let owner: AnyObject?
    private let isOwned: Bool

    /// Set once, by the first dispose.
    let disposed = Atomic<Bool>(false)
    /// Queued deliveries running right now (see ``runQueued(_:)``).
    let inFlight = Atomic<Int>(0)

    init<Value: Sendable>(kind: Kind, delivery: Delivery<Value>, owner: WeakOwner?) {
        self.kind = kind
        self.owner = owner?.object
        self.isOwned = owner != nil
        self.invoke = Self.invoker(for: delivery)
    }

    /// `false` once disposed or once its owner is gone.
    var isAlive: Bool {
        !disposed.load(ordering: .sequentiallyConsistent) && (!isOwned || owner != nil)
    }

    /// `true` if the owner this node was bound to has been deallocated.
    var ownerIsGone: Bool {
        isOwned && owner == nil
    }

    /// Calls the observer with the values `new` and `old` point to; the caller checks
    /// ``isAlive`` first.
    func call(new: UnsafeRawPointer, old: UnsafeRawPointer) {
        invoke(self, new, old)
    }

    /// Runs a queued delivery unless the node was disposed first. The in-flight count is
    /// raised before the check and lowered after the callback, so a concurrent dispose
    /// either makes this check fail or sees the count and waits.
    private func runQueued(_ callback: () -> Void) {
        inFlight.add(1, ordering: .sequentiallyConsistent)
        defer { inFlight.subtract(1, ordering: .sequentiallyConsistent) }
        guard isAlive else { return }
        DeliveryStack.within(self, callback)
    }

    private static func invoker<Value: Sendable>(for delivery: Delivery<Value>) -> Invoker {
        switch delivery {
        case .posting(let invoker):
            return invoker
        case .queue(let target, let callback):
            // A private serial queue in front of the chosen one keeps this observer's
            // deliveries in commit order even when the chosen queue is concurrent.
            let queue = DispatchQueue(label: "componentry.observable.observer", target: target)
            return { node, new, old in
                let (new, old) = (new.assumingMemoryBound(to: Value.self).pointee, old.assumingMemoryBound(to: Value.self).pointee)
                queue.async { node.runQueued { callback(new, old) } }
            }
        case .mainActor(let callback):
            return { node, new, old in
                let (new, old) = (new.assumingMemoryBound(to: Value.self).pointee, old.assumingMemoryBound(to: Value.self).pointee)
                DispatchQueue.main.async {
                    node.runQueued { MainActor.assumeIsolated { callback(new, old) } }
                }
            }
        }
    }
}

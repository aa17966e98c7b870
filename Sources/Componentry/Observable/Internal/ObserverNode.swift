import Dispatch

/// One observer of an ``Observable``: its callback and how it wants to be called; its
/// liveness and owner come from ``DeliveryTarget``.
///
/// Everything is fixed at creation, so the delivering thread reads a node without the lock.
@usableFromInline
final class ObserverNode: DeliveryTarget, @unchecked Sendable {
    /// Calls the observer with the owner (`nil` without one) and the values two pointers
    /// point to: the new value, and the old one (for will-change and initial calls, the
    /// new value again).
    @usableFromInline
    typealias Invoker = @Sendable (AnyObject?, UnsafeRawPointer, UnsafeRawPointer) -> Void

    /// Which moment of a change the observer is called at.
    @usableFromInline
    enum Kind: Sendable {
        case willChange
        case didChange
    }

    /// How the callback wants to be called, with the value type known. Callbacks get the
    /// owner (`nil` without one), the new and the old value.
    enum Delivery<Value: Sendable> {
        /// On the thread that delivers the change, through an invoker that reads pointers.
        case posting(Invoker)
        case queue(DispatchQueue, @Sendable (AnyObject?, Value, Value) -> Void)
        case mainActor(@MainActor @Sendable (AnyObject?, Value, Value) -> Void)
    }

    let kind: Kind
    /// Calls the callback on the delivering thread; unused when `enqueue` is set.
    private let invoke: Invoker
    /// Copies the values into a queued delivery, which checks the node again when it runs;
    /// `nil` for callbacks that run on the delivering thread.
    private let enqueue: (@Sendable (ObserverNode, UnsafeRawPointer, UnsafeRawPointer) -> Void)?

    init<Value: Sendable>(kind: Kind, delivery: Delivery<Value>, owner: WeakOwner?) {
        self.kind = kind
        (invoke, enqueue) = Self.handOver(for: delivery)
        super.init(owner: owner?.object)
    }

    /// Calls the observer with the values `new` and `old` point to, unless it has ended,
    /// in the calling thread's pass `frame`.
    @inline(__always)
    func deliver(new: UnsafeRawPointer, old: UnsafeRawPointer, in frame: inout DeliveryFrame) -> DeliveryOutcome {
        frame.deliver(to: self) { handOver(new: new, old: old, owner: $0) }
    }

    /// Calls the observer outside a pass (its initial value), unless it has ended.
    func deliver(new: UnsafeRawPointer, old: UnsafeRawPointer) -> DeliveryOutcome {
        run { handOver(new: new, old: old, owner: $0) }
    }

    /// Calls the callback, or queues the call; the node was found live.
    @inline(__always)
    private func handOver(new: UnsafeRawPointer, old: UnsafeRawPointer, owner: AnyObject?) {
        if let enqueue {
            enqueue(self, new, old)
        } else {
            invoke(owner, new, old)
        }
    }

    /// The invoker and, for queued callbacks, the enqueuer that `delivery` asks for.
    private static func handOver<Value: Sendable>(
        for delivery: Delivery<Value>
    ) -> (Invoker, (@Sendable (ObserverNode, UnsafeRawPointer, UnsafeRawPointer) -> Void)?) {
        let unused: Invoker = { _, _, _ in }
        switch delivery {
        case .posting(let invoker):
            return (invoker, nil)
        case .queue(let target, let callback):
            // A private serial queue in front of the chosen one keeps this observer's
            // deliveries in commit order even when the chosen queue is concurrent.
            let queue = DispatchQueue(label: "componentry.observable.observer", target: target)
            return (
                unused,
                { node, new, old in
                    let (new, old) = (new.assumingMemoryBound(to: Value.self).pointee, old.assumingMemoryBound(to: Value.self).pointee)
                    queue.async { _ = node.run { callback($0, new, old) } }
                }
            )
        case .mainActor(let callback):
            return (
                unused,
                { node, new, old in
                    let (new, old) = (new.assumingMemoryBound(to: Value.self).pointee, old.assumingMemoryBound(to: Value.self).pointee)
                    DispatchQueue.main.async {
                        MainActor.assumeIsolated { _ = node.run { callback($0, new, old) } }
                    }
                }
            )
        }
    }
}

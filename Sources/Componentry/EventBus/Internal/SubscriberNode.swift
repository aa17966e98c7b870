public import Dispatch

/// One subscription's entry in its event type's list.
///
/// Everything but the list links is fixed at creation, so posting threads read a node
/// without the bus lock; `next` and `previous` are read and written only under it.
@usableFromInline
final class SubscriberNode: DeliveryTarget, @unchecked Sendable {
    /// How the handler wants to be called, with the event's type known. Handlers get the
    /// owner (`nil` without one) and the event.
    @usableFromInline
    enum Delivery<Event: BusEvent> {
        /// On the posting thread, through an invoker that reads the event from a pointer.
        case posting(Invoker)
        case queue(DispatchQueue, @Sendable (AnyObject?, Event) -> Void)
        case mainActor(@MainActor @Sendable (AnyObject?, Event) -> Void)
    }

    /// Calls the handler with the owner and the event a pointer points to (the node's
    /// event type).
    @usableFromInline
    typealias Invoker = @Sendable (AnyObject?, UnsafeRawPointer) -> Void

    let id: UInt64
    let priority: Int
    /// The sub-types this subscriber accepts, or `nil` for all.
    let subTypes: Set<String>?
    /// Runs once, outside the bus lock, after the node leaves its list.
    let onRemoval: (@Sendable () -> Void)?
    /// Calls the handler on the posting thread; unused when `enqueue` is set.
    private let invoke: Invoker
    /// Copies the event into a queued delivery, which checks the node again when it runs;
    /// `nil` for handlers that run on the posting thread.
    private let enqueue: (@Sendable (SubscriberNode, UnsafeRawPointer) -> Void)?
    /// Calls the handler with a stored sticky event, if it has the node's event type.
    private let replay: @Sendable (SubscriberNode, any BusEvent) -> Void

    var next: SubscriberNode?
    unowned(unsafe) var previous: SubscriberNode?

    init<Event: BusEvent>(
        id: UInt64, options: SubscriptionOptions, delivery: Delivery<Event>,
        onRemoval: (@Sendable () -> Void)?
    ) {
        self.id = id
        self.priority = options.priority
        self.subTypes = options.subTypes
        self.onRemoval = onRemoval
        (invoke, enqueue) = Self.handOver(for: delivery, id: id)
        self.replay = { node, event in
            guard let event = event as? Event else { return }
            _ = withUnsafePointer(to: event) { event in node.run { node.handOver(event, owner: $0) } }
        }
        super.init(owner: options.owner?.object)
    }

    func accepts(subType: String?) -> Bool {
        guard let subTypes else { return true }
        guard let subType else { return false }
        return subTypes.contains(subType)
    }

    /// Delivers the event that `event` points to, which has the node's event type, in the
    /// calling thread's pass `frame`.
    @inline(__always)
    func deliver(_ event: UnsafeRawPointer, in frame: inout DeliveryFrame) -> DeliveryOutcome {
        frame.deliver(to: self) { handOver(event, owner: $0) }
    }

    /// Calls the handler, or queues the call; the node was found live.
    @inline(__always)
    private func handOver(_ event: UnsafeRawPointer, owner: AnyObject?) {
        if let enqueue {
            enqueue(self, event)
        } else {
            invoke(owner, event)
        }
    }

    /// Delivers a stored sticky event if it has the node's event type.
    func deliverSticky(_ event: any BusEvent) {
        replay(self, event)
    }

    /// The invoker and, for queued handlers, the enqueuer that `delivery` asks for.
    private static func handOver<Event: BusEvent>(
        for delivery: Delivery<Event>, id: UInt64
    ) -> (Invoker, (@Sendable (SubscriberNode, UnsafeRawPointer) -> Void)?) {
        let unused: Invoker = { _, _ in }
        switch delivery {
        case .posting(let invoker):
            return (invoker, nil)
        case .queue(let target, let handler):
            // A private serial queue in front of the chosen one keeps this subscriber's
            // deliveries first-in-first-out even when the chosen queue is concurrent.
            let queue = DispatchQueue(label: "componentry.eventbus.subscriber.\(id)", target: target)
            return (
                unused,
                { node, event in
                    let event = event.assumingMemoryBound(to: Event.self).pointee
                    queue.async { _ = node.run { handler($0, event) } }
                }
            )
        case .mainActor(let handler):
            return (
                unused,
                { node, event in
                    let event = event.assumingMemoryBound(to: Event.self).pointee
                    DispatchQueue.main.async {
                        MainActor.assumeIsolated { _ = node.run { handler($0, event) } }
                    }
                }
            )
        }
    }
}

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
    private let invocation: Invocation
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
        self.invocation = Self.invocation(for: delivery, id: id)
        self.replay = { node, event in
            guard let event = event as? Event else { return }
            _ = withUnsafePointer(to: event) { node.deliver($0) }
        }
        super.init(owner: options.owner?.object)
    }

    func accepts(subType: String?) -> Bool {
        guard let subTypes else { return true }
        guard let subType else { return false }
        return subTypes.contains(subType)
    }

    /// Delivers the event that `event` points to, which has the node's event type.
    @inline(__always)
    func deliver(_ event: UnsafeRawPointer) -> DeliveryOutcome {
        switch invocation {
        case .posting(let invoke): run { invoke($0, event) }
        case .queued(let enqueue): run { _ in enqueue(self, event) }
        }
    }

    /// Delivers a stored sticky event if it has the node's event type.
    func deliverSticky(_ event: any BusEvent) {
        replay(self, event)
    }

    /// How ``deliver(_:)`` hands an event over.
    private enum Invocation {
        /// Calls the handler on the posting thread.
        case posting(Invoker)
        /// Copies the event into a queued delivery, which checks the node again when it runs.
        case queued(@Sendable (SubscriberNode, UnsafeRawPointer) -> Void)
    }

    private static func invocation<Event: BusEvent>(
        for delivery: Delivery<Event>, id: UInt64
    ) -> Invocation {
        switch delivery {
        case .posting(let invoker):
            return .posting(invoker)
        case .queue(let target, let handler):
            // A private serial queue in front of the chosen one keeps this subscriber's
            // deliveries first-in-first-out even when the chosen queue is concurrent.
            let queue = DispatchQueue(label: "componentry.eventbus.subscriber.\(id)", target: target)
            return .queued { node, event in
                let event = event.assumingMemoryBound(to: Event.self).pointee
                queue.async { _ = node.run { handler($0, event) } }
            }
        case .mainActor(let handler):
            return .queued { node, event in
                let event = event.assumingMemoryBound(to: Event.self).pointee
                DispatchQueue.main.async {
                    MainActor.assumeIsolated { _ = node.run { handler($0, event) } }
                }
            }
        }
    }
}

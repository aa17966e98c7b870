public import Dispatch
import Synchronization

/// One subscription's entry in its event type's list.
///
/// Everything but the list links is fixed at creation, so posting threads read a node
/// without the bus lock; `next` and `previous` are read and written only under it.
@usableFromInline
final class SubscriberNode: @unchecked Sendable {
    /// How the handler wants to be called, with the event's type known.
    @usableFromInline
    enum Delivery<Event: BusEvent> {
        /// On the posting thread, through an invoker that reads the event from a pointer.
        case posting(Invoker)
        case queue(DispatchQueue, @Sendable (Event) -> Void)
        case mainActor(@MainActor @Sendable (Event) -> Void)
    }

    let id: UInt64
    let priority: Int
    /// The sub-types this subscriber accepts, or `nil` for all.
    let subTypes: Set<String>?
    /// Runs once, outside the bus lock, after the node leaves its list.
    let onRemoval: (@Sendable () -> Void)?
    /// Calls the handler with the event a pointer points to (the node's event type).
    @usableFromInline
    typealias Invoker = @Sendable (SubscriberNode, UnsafeRawPointer) -> Void

    private let invoke: Invoker
    /// Calls the handler with a stored sticky event, if it has the node's event type.
    private let replay: @Sendable (SubscriberNode, any BusEvent) -> Void
    private weak let owner: AnyObject?
    private let isOwned: Bool

    /// Set once, by the first dispose or purge.
    let disposed = Atomic<Bool>(false)
    /// Queued deliveries running right now (see ``runQueued(_:)``).
    let inFlight = Atomic<Int>(0)

    var next: SubscriberNode?
    unowned(unsafe) var previous: SubscriberNode?

    init<Event: BusEvent>(
        id: UInt64, options: SubscriptionOptions, delivery: Delivery<Event>,
        onRemoval: (@Sendable () -> Void)?
    ) {
        self.id = id
        self.priority = options.priority
        self.subTypes = options.subTypes
        self.owner = options.owner?.object
        self.isOwned = options.owner != nil
        self.onRemoval = onRemoval
        self.invoke = Self.invoker(for: delivery, id: id)
        self.replay = { node, event in
            guard let event = event as? Event else { return }
            withUnsafePointer(to: event) { node.deliver($0) }
        }
    }

    /// `false` once disposed or once its owner is gone.
    var isAlive: Bool {
        !disposed.load(ordering: .sequentiallyConsistent) && (!isOwned || owner != nil)
    }

    /// `true` if the owner this node was bound to has been deallocated.
    var ownerIsGone: Bool {
        isOwned && owner == nil
    }

    func accepts(subType: String?) -> Bool {
        guard let subTypes else { return true }
        guard let subType else { return false }
        return subTypes.contains(subType)
    }

    /// Delivers the event that `event` points to, which has the node's event type.
    func deliver(_ event: UnsafeRawPointer) {
        invoke(self, event)
    }

    /// Delivers a stored sticky event if it has the node's event type.
    func deliverSticky(_ event: any BusEvent) {
        replay(self, event)
    }

    /// Runs a queued delivery unless the node was disposed first. The in-flight count
    /// is raised before the check and lowered after the handler, so a concurrent
    /// `dispose()` either makes this check fail or sees the count and waits.
    func runQueued(_ handler: () -> Void) {
        inFlight.add(1, ordering: .sequentiallyConsistent)
        defer { inFlight.subtract(1, ordering: .sequentiallyConsistent) }
        guard isAlive else { return }
        DeliveryStack.within(self, handler)
    }

    private static func invoker<Event: BusEvent>(
        for delivery: Delivery<Event>, id: UInt64
    ) -> Invoker {
        switch delivery {
        case .posting(let invoker):
            return invoker
        case .queue(let target, let handler):
            // A private serial queue in front of the chosen one keeps this subscriber's
            // deliveries first-in-first-out even when the chosen queue is concurrent.
            let queue = DispatchQueue(label: "componentry.eventbus.subscriber.\(id)", target: target)
            return { node, event in
                let event = event.assumingMemoryBound(to: Event.self).pointee
                queue.async { node.runQueued { handler(event) } }
            }
        case .mainActor(let handler):
            return { node, event in
                let event = event.assumingMemoryBound(to: Event.self).pointee
                DispatchQueue.main.async {
                    node.runQueued { MainActor.assumeIsolated { handler(event) } }
                }
            }
        }
    }
}

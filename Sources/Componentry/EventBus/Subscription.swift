/// A live subscription to an ``EventBus``; dispose it to stop receiving events.
///
/// After ``dispose()`` returns, the handler is never entered again — not for posts that
/// are iterating subscribers on other threads at that moment (dispose waits for them to
/// pass), and not for deliveries already queued on a dispatch queue or the main actor.
/// A handler may dispose its own or any other subscription; that never waits for the
/// calling thread itself. Dispose waits only for this subscription's own handler, never
/// for other handlers of the event; do not dispose while holding a lock that this
/// subscription's running handler needs: dispose would wait for it, and it for the lock.
///
/// Subscriptions bound to an ``SubscriptionBuilder/owner(_:)`` end by themselves when
/// the owner is deallocated; others live until disposed, by hand or by a ``DisposeBag``.
public struct Subscription: Disposable, Hashable {
    /// The subscription's id: unique within its bus, increasing in subscription order.
    public let id: UInt64
    private let bus: EventBus
    private let node: SubscriberNode
    private let type: ObjectIdentifier

    init(bus: EventBus, node: SubscriberNode, type: ObjectIdentifier) {
        self.id = node.id
        self.bus = bus
        self.node = node
        self.type = type
    }

    /// Ends the subscription. Idempotent; see the type's discussion for what it guarantees.
    public func dispose() {
        bus.dispose(node, of: type)
    }

    /// `true` once the subscription was disposed, or its owner deallocated.
    public var isDisposed: Bool {
        !node.isAlive
    }

    public static func == (lhs: Subscription, rhs: Subscription) -> Bool {
        lhs.node === rhs.node
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(node))
    }
}

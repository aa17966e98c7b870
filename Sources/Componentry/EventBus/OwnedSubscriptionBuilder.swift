public import Dispatch

/// A ``SubscriptionBuilder`` bound to an owner: the subscription ends when the owner is
/// deallocated, and the handler gets the owner as its first parameter, so it never needs
/// to capture it.
///
/// ```swift
/// final class BillList: LifetimeOwner {
///     init(bus: EventBus) {
///         subscribe(to: BillCreated.self, on: bus).handle { list, bill in list.refresh(bill) }
///     }
///     func refresh(_ bill: BillCreated) {}
/// }
/// ```
///
/// The bus holds the owner weakly, and the handler holds what it captures strongly: a
/// handler that still needs another object that may hold the owner captures it with
/// `[weak object]`. While the handler runs, the owner is held, so it stays alive.
public struct OwnedSubscriptionBuilder<Owner: AnyObject, Event: BusEvent>: Sendable {
    @usableFromInline var base: SubscriptionBuilder<Event>

    /// See ``SubscriptionBuilder/subType(_:)``.
    public func subType(_ subType: String) -> Self { Self(base: base.subType(subType)) }

    /// See ``SubscriptionBuilder/subTypes(_:)``.
    public func subTypes(_ subTypes: some Sequence<String>) -> Self { Self(base: base.subTypes(subTypes)) }

    /// See ``SubscriptionBuilder/priority(_:)``.
    public func priority(_ priority: Int) -> Self { Self(base: base.priority(priority)) }

    /// See ``SubscriptionBuilder/replayingSticky()``.
    public func replayingSticky() -> Self { Self(base: base.replayingSticky()) }

    /// See ``SubscriptionBuilder/on(_:)``.
    public func on(_ queue: DispatchQueue) -> Self { Self(base: base.on(queue)) }

    /// See ``SubscriptionBuilder/onMainActor()``.
    public func onMainActor() -> MainActorOwnedSubscriptionBuilder<Owner, Event> {
        MainActorOwnedSubscriptionBuilder(base: self)
    }

    /// Subscribes `handler`, which gets the owner and the event, and returns the
    /// subscription; it may be ignored, as the owner bounds its lifetime.
    @inlinable @discardableResult
    public func handle(_ handler: @escaping @Sendable (Owner, Event) -> Void) -> Subscription {
        // The bus calls handlers of owned subscriptions only with their (live) owner.
        if let queue = base.queue {
            return base.bus.subscribe(
                base.options,
                delivery: .queue(queue) { owner, event in
                    handler(unsafeDowncast(owner.unsafelyUnwrapped, to: Owner.self), event)
                })
        }
        // Built here, in the caller's module, so that it is specialized for `Event`.
        return base.bus.subscribe(
            base.options,
            delivery: SubscriberNode.Delivery<Event>.posting { owner, event in
                handler(unsafeDowncast(owner.unsafelyUnwrapped, to: Owner.self), event.assumingMemoryBound(to: Event.self).pointee)
            })
    }
}

/// An ``OwnedSubscriptionBuilder`` whose handler runs on the main actor.
public struct MainActorOwnedSubscriptionBuilder<Owner: AnyObject, Event: BusEvent>: Sendable {
    var base: OwnedSubscriptionBuilder<Owner, Event>

    /// See ``SubscriptionBuilder/subType(_:)``.
    public func subType(_ subType: String) -> Self { Self(base: base.subType(subType)) }

    /// See ``SubscriptionBuilder/subTypes(_:)``.
    public func subTypes(_ subTypes: some Sequence<String>) -> Self { Self(base: base.subTypes(subTypes)) }

    /// See ``SubscriptionBuilder/priority(_:)``.
    public func priority(_ priority: Int) -> Self { Self(base: base.priority(priority)) }

    /// See ``SubscriptionBuilder/replayingSticky()``.
    public func replayingSticky() -> Self { Self(base: base.replayingSticky()) }

    /// Subscribes `handler`, called on the main actor with the owner and the event, and
    /// returns the subscription.
    @discardableResult
    public func handle(_ handler: @escaping @MainActor @Sendable (Owner, Event) -> Void) -> Subscription {
        base.base.bus.subscribe(
            base.base.options,
            delivery: .mainActor { owner, event in
                handler(unsafeDowncast(owner.unsafelyUnwrapped, to: Owner.self), event)
            })
    }
}

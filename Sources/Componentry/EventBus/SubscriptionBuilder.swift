public import Dispatch

/// A chainable description of a subscription; only the handler is required.
///
/// Start one with ``EventBus/on(_:)`` (or ``LifetimeOwner/subscribe(to:on:)`` to make
/// `self` the owner), set what you need, and end with ``handle(_:)``:
///
/// ```swift
/// bus.on(BillCreated.self)
///     .subType("expense")     // only this sub-type
///     .priority(10)           // before subscribers of lower priority
///     .on(workQueue)          // deliver there instead of on the posting thread
///     .handle { bill in print(bill.amount) }
/// ```
///
/// ``owner(_:)`` turns it into an ``OwnedSubscriptionBuilder``, whose handler gets the
/// owner as its first parameter.
///
/// Builders are values: each step returns a changed copy, so a partial builder can be
/// kept and finished several times.
public struct SubscriptionBuilder<Event: BusEvent>: Sendable {
    @usableFromInline let bus: EventBus
    @usableFromInline var options = SubscriptionOptions()
    @usableFromInline var queue: DispatchQueue?

    init(bus: EventBus) {
        self.bus = bus
    }

    /// Binds the subscription to `owner`: it ends when `owner` is deallocated, and the
    /// handler, which gets the owner as its first parameter, is never called after that.
    public func owner<Owner: AnyObject>(_ owner: Owner) -> OwnedSubscriptionBuilder<Owner, Event> {
        OwnedSubscriptionBuilder(base: with { $0.options.owner = WeakOwner(object: owner) })
    }

    /// Receives only events whose ``BusEvent/subType`` is `subType`.
    public func subType(_ subType: String) -> Self {
        subTypes([subType])
    }

    /// Receives only events whose ``BusEvent/subType`` is one of `subTypes`.
    public func subTypes(_ subTypes: some Sequence<String>) -> Self {
        with { $0.options.subTypes = ($0.options.subTypes ?? []).union(subTypes) }
    }

    /// Orders this subscriber among the event's subscribers: higher priorities are
    /// delivered first, equal priorities in registration order. The default is 0.
    public func priority(_ priority: Int) -> Self {
        with { $0.options.priority = priority }
    }

    /// Delivers the last sticky event(s) of this type to the new subscriber as soon as it
    /// subscribes (see ``EventBus/postSticky(_:)``).
    public func replayingSticky() -> Self {
        with { $0.options.receivesSticky = true }
    }

    /// Delivers on `queue`, asynchronously, first-in-first-out for this subscriber even
    /// when `queue` is concurrent. Without it, handlers run on the posting thread before
    /// ``EventBus/post(_:)`` returns.
    public func on(_ queue: DispatchQueue) -> Self {
        with { $0.queue = queue }
    }

    /// Delivers on the main actor, asynchronously and first-in-first-out; the handler may
    /// touch main-actor state.
    public func onMainActor() -> MainActorSubscriptionBuilder<Event> {
        MainActorSubscriptionBuilder(base: self)
    }

    /// Subscribes `handler` and returns the subscription.
    ///
    /// The result may be ignored when an owner bounds the subscription's lifetime.
    @inlinable @discardableResult
    public func handle(_ handler: @escaping @Sendable (Event) -> Void) -> Subscription {
        if let queue {
            return bus.subscribe(options, delivery: .queue(queue) { _, event in handler(event) })
        }
        // Built here, in the caller's module, so that it is specialized for `Event`.
        return bus.subscribe(
            options,
            delivery: SubscriberNode.Delivery<Event>.posting { _, event in
                handler(event.assumingMemoryBound(to: Event.self).pointee)
            })
    }

    func with(_ change: (inout Self) -> Void) -> Self {
        var copy = self
        change(&copy)
        return copy
    }
}

/// A ``SubscriptionBuilder`` whose handler runs on the main actor.
public struct MainActorSubscriptionBuilder<Event: BusEvent>: Sendable {
    var base: SubscriptionBuilder<Event>

    /// See ``SubscriptionBuilder/owner(_:)``.
    public func owner<Owner: AnyObject>(_ owner: Owner) -> MainActorOwnedSubscriptionBuilder<Owner, Event> {
        MainActorOwnedSubscriptionBuilder(base: base.owner(owner))
    }

    /// See ``SubscriptionBuilder/subType(_:)``.
    public func subType(_ subType: String) -> Self { Self(base: base.subType(subType)) }

    /// See ``SubscriptionBuilder/subTypes(_:)``.
    public func subTypes(_ subTypes: some Sequence<String>) -> Self { Self(base: base.subTypes(subTypes)) }

    /// See ``SubscriptionBuilder/priority(_:)``.
    public func priority(_ priority: Int) -> Self { Self(base: base.priority(priority)) }

    /// See ``SubscriptionBuilder/replayingSticky()``.
    public func replayingSticky() -> Self { Self(base: base.replayingSticky()) }

    /// Subscribes `handler`, called on the main actor, and returns the subscription.
    @discardableResult
    public func handle(_ handler: @escaping @MainActor @Sendable (Event) -> Void) -> Subscription {
        base.bus.subscribe(base.options, delivery: .mainActor { _, event in handler(event) })
    }
}

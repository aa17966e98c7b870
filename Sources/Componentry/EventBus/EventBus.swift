public import Foundation
import Locking

/// A typed, thread-safe publish–subscribe bus.
///
/// Define an event, subscribe, post:
///
/// ```swift
/// struct LoginEvent: BusEvent { let userID: String }
///
/// let bus = EventBus()
/// let subscription = bus.on(LoginEvent.self).handle { event in
///     print("hello", event.userID)
/// }
/// bus.post(LoginEvent(userID: "42"))   // prints before post returns
/// subscription.dispose()
/// ```
///
/// ## Delivery
/// ``post(_:)`` works from any thread, task or actor. By default each handler runs on the
/// posting thread before `post` returns, so the poster may rely on its handlers having
/// run. A subscriber may instead ask for delivery on a dispatch queue or the main actor
/// (``SubscriptionBuilder/on(_:)``, ``SubscriptionBuilder/onMainActor()``); those
/// deliveries are asynchronous and first-in-first-out per subscriber.
/// ``postAsynchronously(_:)`` returns at once and posts later, in posting order, on the
/// bus's own serial queue.
///
/// ## Order
/// Subscribers receive an event by descending ``SubscriptionBuilder/priority(_:)``, and
/// in registration order within a priority.
///
/// ## Posting from a handler
/// A post made inside a handler is delivered at once, depth first, like a function call:
/// all of its handlers run before the outer post moves on to its next subscriber. A
/// subscription made inside a handler does not receive the event being delivered; one
/// disposed inside a handler is not called again, even later in the same post.
///
/// ## Cost
/// Subscribe and dispose are O(1) (amortized: a subscribe sometimes sweeps out the
/// subscriptions of dead owners). Posts read a cached, immutable list of the subscribers
/// for their key, rebuilt only after subscriptions change, so a post in steady state takes
/// the lock once, allocates and retains nothing, and calls each handler directly.
public final class EventBus: Sendable {
    /// A process-wide bus, for modules that share no other object.
    public static let shared = EventBus()

    struct State {
        /// Every event type's registry, in the order they were made.
        private(set) var registries: [TypeRegistry] = []
        /// The registries by event type, unretained (``registries`` keeps them), so that a
        /// post reaches its snapshot without a retain and release of the registry.
        private var table = TypeTable<Unmanaged<TypeRegistry>>()
        var hooks = Hooks()
        /// Bounds the subscribers of dead owners that no post of their type has found.
        var sweep = DeadOwnerSweep()

        /// The registry of the event type `type`, if it has one.
        func registry(_ type: ObjectIdentifier) -> TypeRegistry? {
            table[type]?.takeUnretainedValue()
        }

        /// The snapshot that a post of `type` with `subType` delivers to.
        @inline(__always)
        func snapshot(_ type: ObjectIdentifier, subType: String?) -> Unmanaged<Snapshot>? {
            table[type]?._withUnsafeGuaranteedRef { $0.snapshot(for: subType) }
        }

        mutating func registry<Event: BusEvent>(for type: Event.Type) -> TypeRegistry {
            let key = ObjectIdentifier(type)
            if let registry = registry(key) { return registry }
            let registry = TypeRegistry(typeName: String(reflecting: type))
            registries.append(registry)
            table.insert(Unmanaged.passUnretained(registry), for: key)
            return registry
        }

        /// Links `node`; returns the subscribers of dead owners a sweep unlinked on the
        /// way, so their removal hooks can run outside the lock.
        mutating func insert<Event: BusEvent>(_ node: SubscriberNode, for type: Event.Type) -> [SubscriberNode] {
            registry(for: type).insert(node)
            guard sweep.inserted(node) else { return [] }
            var dead: [SubscriberNode] = []
            for registry in registries { dead += registry.removeDeadOwners() }
            for node in dead { sweep.removed(node) }
            sweep.swept()
            return dead
        }

        /// Unlinks `node` if it is linked.
        mutating func remove(_ node: SubscriberNode, of type: ObjectIdentifier) {
            if registry(type)?.remove(node) == true { sweep.removed(node) }
        }

        /// Linked subscribers, live or not, of every type (for tests of the bound).
        var linkedCount: Int {
            registries.reduce(0) { $0 + $1.count }
        }
    }

    struct Hooks {
        var unhandled: (@Sendable (any BusEvent) -> Void)?
        var tracer: (@Sendable (BusTraceEntry) -> Void)?

        /// The hooks a post must call, `nil` when none is set: a post without hooks then
        /// copies (retains and releases) no closure.
        var whenSet: Hooks? {
            unhandled == nil && tracer == nil ? nil : self
        }
    }

    let state = Locked(State())
    private let nextID = AtomicWord<UInt64>(1)
    private let asyncQueue = DispatchQueue(label: "componentry.eventbus.async")
    let notificationCenter: NotificationCenter
    let bridges = Locked<[String: NotificationBridge]>([:])

    /// Creates a bus. Notifications bridged with ``on(notification:)`` are observed on
    /// `notificationCenter`.
    public init(notificationCenter: NotificationCenter = .default) {
        self.notificationCenter = notificationCenter
    }

    // MARK: Subscribing

    /// Starts a subscription to events of `type`; finish it with
    /// ``SubscriptionBuilder/handle(_:)``.
    public func on<Event: BusEvent>(_ type: Event.Type) -> SubscriptionBuilder<Event> {
        SubscriptionBuilder(bus: self)
    }

    /// Starts a subscription to the ``NamedEvent``s called `name`.
    public func on(named name: String) -> SubscriptionBuilder<NamedEvent> {
        on(NamedEvent.self).subType(name)
    }

    @usableFromInline
    func subscribe<Event: BusEvent>(
        _ options: SubscriptionOptions, delivery: SubscriberNode.Delivery<Event>
    ) -> Subscription {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        let onRemoval = options.bridgedNotification.map(acquireBridge)
        let node = SubscriberNode(id: id, options: options, delivery: delivery, onRemoval: onRemoval)
        let (sticky, dead) = state.withLock { state in
            let dead = state.insert(node, for: Event.self)
            let sticky =
                options.receivesSticky
                ? state.registry(for: Event.self).sticky.filter { node.accepts(subType: $0.subType) }.map(\.event) : []
            return (sticky, dead)
        }
        for node in dead { node.onRemoval?() }
        for event in sticky {
            node.deliverSticky(event)
        }
        return Subscription(bus: self, node: node, type: ObjectIdentifier(Event.self))
    }

    // MARK: Posting

    /// Delivers `event` to its subscribers; handlers that run on the posting thread have
    /// all run when this returns.
    @inlinable
    public func post<Event: BusEvent>(_ event: Event) {
        withUnsafePointer(to: event) { pointer in
            deliver(pointer, of: Event.self, subType: event.subType) { event }
        }
    }

    /// The type-erased body of ``post(_:)``: `event` points to a value of `type`;
    /// `boxed` makes an existential of it, for the unhandled-event hook only.
    @usableFromInline
    func deliver(
        _ event: UnsafeRawPointer, of type: any BusEvent.Type, subType: String?,
        boxed: () -> any BusEvent
    ) {
        let (delivered, hooks) = deliverToSnapshot(event, of: type, subType: subType)
        if delivered == 0 {
            hooks?.tracer?(.unhandled(EventKey(type, subType: subType)))
            hooks?.unhandled?(boxed())
        }
    }

    /// Calls the handlers of the current snapshot for `type` and `subType`; returns how
    /// many were called and the hooks that were set. Its frame is closed on return, before
    /// the unhandled-event hook runs.
    @inline(__always)
    private func deliverToSnapshot(
        _ event: UnsafeRawPointer, of type: any BusEvent.Type, subType: String?
    ) -> (delivered: Int, hooks: Hooks?) {
        let typeID = ObjectIdentifier(type)
        var frame = DeliveryFrame()
        let (found, hooks) = state.withLock { state -> (Unmanaged<Snapshot>?, Hooks?) in
            let snapshot = state.snapshot(typeID, subType: subType)
            if let snapshot { frame.protect(snapshot) }
            return (snapshot, state.hooks.whenSet)
        }
        guard let found else { return (0, hooks) }
        var delivered = 0
        found._withUnsafeGuaranteedRef { snapshot in
            hooks?.tracer?(.posted(EventKey(type, subType: subType), subscribers: snapshot.targets.count))
            snapshot.forEach { node in
                switch node.deliver(event, in: &frame) {
                case .delivered:
                    delivered += 1
                    hooks?.tracer?(.delivered(EventKey(type, subType: subType), subscription: node.id))
                case .skipped:
                    break
                case .ownerGone:
                    purge(node, of: typeID)
                }
            }
        }
        return (delivered, hooks)
    }

    /// Posts a ``NamedEvent`` called `name` carrying `payload`.
    public func post(named name: String, payload: [String: any Sendable] = [:]) {
        post(NamedEvent(name, payload: payload))
    }

    /// Returns at once and posts `event` later on the bus's serial queue: asynchronous
    /// posts are delivered in the order they were made.
    public func postAsynchronously<Event: BusEvent>(_ event: Event) {
        asyncQueue.async { self.post(event) }
    }

    // MARK: Sticky events

    /// Posts `event` and keeps it as the last sticky event of its type and sub-type, for
    /// subscribers that ask with ``SubscriptionBuilder/replayingSticky()``.
    public func postSticky<Event: BusEvent>(_ event: Event) {
        state.withLock { $0.registry(for: Event.self).storeSticky(event) }
        post(event)
    }

    /// The last sticky event of `type` with `subType`, if one is kept.
    public func sticky<Event: BusEvent>(_ type: Event.Type, subType: String? = nil) -> Event? {
        state.withLock { state in
            state.registry(ObjectIdentifier(type))?.sticky.last { $0.subType == subType }?.event as? Event
        }
    }

    /// Forgets the sticky event of `type` with `subType`.
    public func removeSticky<Event: BusEvent>(_ type: Event.Type, subType: String? = nil) {
        state.withLock { $0.registry(ObjectIdentifier(type))?.removeSticky(subType: subType) }
    }

    /// Forgets every sticky event of `type`, whatever its sub-type.
    public func removeAllSticky<Event: BusEvent>(_ type: Event.Type) {
        state.withLock { $0.registry(ObjectIdentifier(type))?.removeAllSticky() }
    }

    // MARK: Ending subscriptions

    func dispose(_ node: SubscriberNode, of type: ObjectIdentifier) {
        if node.end() {
            state.withLock { $0.remove(node, of: type) }
            node.onRemoval?()
        }
        node.waitUntilIdle()
    }

    /// Unlinks a subscriber whose owner is gone; no handler of it can run any more, so
    /// nothing needs to be waited for.
    private func purge(_ node: SubscriberNode, of type: ObjectIdentifier) {
        guard node.end() else { return }
        state.withLock { $0.remove(node, of: type) }
        node.onRemoval?()
    }
}

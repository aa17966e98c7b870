/// The key an event is delivered by: its type and sub-type.
public struct EventKey: Hashable, Sendable, CustomStringConvertible {
    /// The event type's fully qualified name.
    public let typeName: String
    /// The sub-type, or `nil`.
    public let subType: String?

    /// The key of events of `type` with `subType`.
    public init(_ type: any BusEvent.Type, subType: String? = nil) {
        self.init(typeName: String(reflecting: type), subType: subType)
    }

    init(typeName: String, subType: String?) {
        self.typeName = typeName
        self.subType = subType
    }

    public var description: String {
        subType.map { "\(typeName)[\($0)]" } ?? typeName
    }
}

/// One step of the bus's work, reported to ``EventBus/tracer``.
public enum BusTraceEntry: Sendable, Equatable {
    /// An event was posted; `subscribers` may receive it.
    case posted(EventKey, subscribers: Int)
    /// The event was handed to the subscription with id `subscription` (for queued
    /// delivery: enqueued).
    case delivered(EventKey, subscription: UInt64)
    /// Nobody received the event.
    case unhandled(EventKey)
}

extension EventBus {
    /// Called with every event that reached no subscriber, on the posting thread.
    public var unhandledEventHandler: (@Sendable (any BusEvent) -> Void)? {
        get { state.withLock { $0.hooks.unhandled } }
        set { state.withLock { $0.hooks.unhandled = newValue } }
    }

    /// Called with every post and delivery, on the posting thread; `nil` (the default)
    /// turns tracing off at no cost.
    public var tracer: (@Sendable (BusTraceEntry) -> Void)? {
        get { state.withLock { $0.hooks.tracer } }
        set { state.withLock { $0.hooks.tracer = newValue } }
    }

    /// How many live subscriptions would receive an event of `type` with `subType`.
    public func subscriberCount<Event: BusEvent>(_ type: Event.Type, subType: String? = nil) -> Int {
        state.withLock { state in
            state.registry(ObjectIdentifier(type))?.nodes.count {
                $0.isAlive && $0.accepts(subType: subType)
            } ?? 0
        }
    }

    /// Live subscriptions per key: a subscriber without a sub-type filter counts under
    /// its type with `subType == nil`, one with a filter under each sub-type it accepts.
    public var subscriberCounts: [EventKey: Int] {
        state.withLock { state in
            var counts: [EventKey: Int] = [:]
            for registry in state.registries {
                for node in registry.nodes where node.isAlive {
                    for subType in node.subTypes.map({ $0.map(Optional.some) }) ?? [nil] {
                        counts[EventKey(typeName: registry.typeName, subType: subType), default: 0] += 1
                    }
                }
            }
            return counts
        }
    }
}

extension EventBus {
    /// Subscribers linked in the bus, live or not: what a subscriber of a dead owner
    /// occupies until it is found (for tests of the bound).
    var linkedSubscriberCount: Int {
        state.withLock { $0.linkedCount }
    }

    /// Cached snapshots over all event types (for tests of the bound).
    var cachedSnapshotCount: Int {
        state.withLock { state in state.registries.reduce(0) { $0 + $1.snapshotCount } }
    }

    /// Replaced snapshots kept for posts that may still iterate them (for tests of the
    /// bound).
    var retiredSnapshotCount: Int {
        state.withLock { state in state.registries.reduce(0) { $0 + $1.retiredCount } }
    }
}

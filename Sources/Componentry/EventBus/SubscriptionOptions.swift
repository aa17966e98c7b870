/// What a subscription builder has collected before its handler arrives.
@usableFromInline
struct SubscriptionOptions: Sendable {
    var owner: WeakOwner?
    var subTypes: Set<String>?
    var priority = 0
    var receivesSticky = false
    /// The notification name this subscription keeps observed, for the bridge.
    var bridgedNotification: String?
}

/// A weak reference to a subscription's owner; only its identity and liveness are read.
struct WeakOwner: @unchecked Sendable {
    weak var object: AnyObject?
}

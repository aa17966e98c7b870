/// The subscribers and sticky events of one event type. Guarded by the bus lock.
///
/// Subscribers sit in one doubly linked list per priority, appended at the tail, so
/// subscribe and dispose are O(1) and each list is in registration order. Posts read
/// cached ``Snapshot``s — one for the subscribers without a sub-type filter, one per
/// sub-type a filter names — rebuilt lazily after a change.
final class TypeRegistry {
    let typeName: String
    private var lists: [Int: NodeList] = [:]
    /// The priorities that have a list, highest first.
    private var priorities: [Int] = []
    private(set) var count = 0

    /// How many linked subscribers name each sub-type in their filter.
    private var namedSubTypes: [String: Int] = [:]
    /// The subscribers without a filter: what events without a sub-type, and those of a
    /// sub-type no filter names, are delivered to.
    ///
    /// Cached snapshots are held unmanaged, each retained once by the registry, so that a
    /// post reads one without a retain and release of its own.
    private var unfilteredSnapshot: Unmanaged<Snapshot>?
    /// One per sub-type that a filter names and that was posted since the last change, so
    /// never more entries than the named sub-types: a post of a sub-type nobody names
    /// (`post(named:)` with a name made at run time) adds nothing.
    private var snapshots: [String: Unmanaged<Snapshot>] = [:]
    /// Snapshots dropped while a post may still iterate them, kept until no frame slot
    /// names them: at most one per frame that was iterating when they were dropped.
    private var retired: [Snapshot] = []

    /// The last sticky event per sub-type, in the order they were posted.
    private(set) var sticky: [(subType: String?, event: any BusEvent)] = []

    init(typeName: String) {
        self.typeName = typeName
    }

    deinit {
        unfilteredSnapshot?.release()
        snapshots.values.forEach { $0.release() }
    }

    /// The replaced snapshots kept now (for tests of the bound).
    var retiredCount: Int {
        retired.count
    }

    /// The snapshots cached now (for tests of the bound).
    var snapshotCount: Int {
        snapshots.count + (unfilteredSnapshot == nil ? 0 : 1)
    }

    // MARK: Subscribers

    func insert(_ node: SubscriberNode) {
        let list: NodeList
        if let existing = lists[node.priority] {
            list = existing
        } else {
            list = NodeList()
            lists[node.priority] = list
            let index = priorities.firstIndex { $0 < node.priority } ?? priorities.endIndex
            priorities.insert(node.priority, at: index)
        }
        list.append(node)
        for subType in node.subTypes ?? [] { namedSubTypes[subType, default: 0] += 1 }
        count += 1
        invalidate()
    }

    /// Unlinks `node`; returns `false` if it was not linked.
    @discardableResult
    func remove(_ node: SubscriberNode) -> Bool {
        guard let list = lists[node.priority], list.remove(node) else { return false }
        for subType in node.subTypes ?? [] {
            if namedSubTypes[subType]! > 1 {
                namedSubTypes[subType]! -= 1
            } else {
                namedSubTypes[subType] = nil
            }
        }
        count -= 1
        invalidate()
        return true
    }

    /// Linked subscribers in delivery order: priority, then registration order.
    var nodes: some Sequence<SubscriberNode> {
        priorities.lazy.flatMap { self.lists[$0]! }
    }

    /// Drops the cached snapshots; the next post of each key builds a new one.
    private func invalidate() {
        guard unfilteredSnapshot != nil || !snapshots.isEmpty || !retired.isEmpty else { return }
        if let unfilteredSnapshot { retired.append(unfilteredSnapshot.takeRetainedValue()) }
        retired += snapshots.values.map { $0.takeRetainedValue() }
        unfilteredSnapshot = nil
        snapshots.removeAll()
        retired.removeAll { !DeliveryThread.isIterating(ObjectIdentifier($0)) }
    }

    // MARK: Snapshots

    /// The snapshot for events of `subType`, rebuilt if a change made it stale.
    ///
    /// The registry keeps the snapshot until the next change; the caller keeps it longer
    /// only by naming it in a frame slot (``DeliveryFrame/protect(_:)``).
    @inline(__always)
    func snapshot(for subType: String?) -> Unmanaged<Snapshot> {
        if subType == nil, let unfilteredSnapshot { return unfilteredSnapshot }
        return slowSnapshot(for: subType)
    }

    private func slowSnapshot(for subType: String?) -> Unmanaged<Snapshot> {
        guard let subType, namedSubTypes[subType] != nil else {
            if let unfilteredSnapshot { return unfilteredSnapshot }
            let snapshot = build { $0.subTypes == nil }
            unfilteredSnapshot = snapshot
            return snapshot
        }
        if let cached = snapshots[subType] { return cached }
        let snapshot = build { $0.accepts(subType: subType) }
        snapshots[subType] = snapshot
        return snapshot
    }

    private func build(_ isIncluded: (SubscriberNode) -> Bool) -> Unmanaged<Snapshot> {
        Snapshot.retained(nodes.filter(isIncluded))
    }

    /// Unlinks every subscriber whose owner is gone and marks it ended; returns them, so
    /// their removal hooks can run outside the lock.
    func removeDeadOwners() -> [SubscriberNode] {
        let dead = nodes.filter { $0.ownerIsGone && $0.end() }
        for node in dead { remove(node) }
        return dead
    }

    // MARK: Sticky events

    func storeSticky(_ event: any BusEvent) {
        let subType = event.subType
        sticky.removeAll { $0.subType == subType }
        sticky.append((subType, event))
    }

    func removeSticky(subType: String?) {
        sticky.removeAll { $0.subType == subType }
    }

    func removeAllSticky() {
        sticky.removeAll()
    }
}

/// A doubly linked list of subscribers of one priority, in registration order.
final class NodeList: Sequence {
    private var head: SubscriberNode?
    private var tail: SubscriberNode?

    func append(_ node: SubscriberNode) {
        node.previous = tail
        node.next = nil
        if let tail { tail.next = node } else { head = node }
        tail = node
    }

    /// Unlinks `node` in O(1); returns `false` if it is not in this list.
    func remove(_ node: SubscriberNode) -> Bool {
        guard node.previous != nil || head === node else { return false }
        if let previous = node.previous { previous.next = node.next } else { head = node.next }
        if let next = node.next { next.previous = node.previous } else { tail = node.previous }
        node.next = nil
        node.previous = nil
        return true
    }

    func makeIterator() -> some IteratorProtocol<SubscriberNode> {
        var current = head
        return AnyIterator {
            defer { current = current?.next }
            return current
        }
    }
}

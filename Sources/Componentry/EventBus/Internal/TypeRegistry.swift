/// The subscribers and sticky events of one event type. Guarded by the bus lock.
///
/// Subscribers sit in one doubly linked list per priority, appended at the tail, so
/// subscribe and dispose are O(1) and each list is in registration order. Posts read
/// cached ``Snapshot``s, one per sub-type posted, rebuilt lazily after a change.
final class TypeRegistry {
    let typeName: String
    private var lists: [Int: NodeList] = [:]
    /// The priorities that have a list, highest first.
    private var priorities: [Int] = []
    private(set) var count = 0

    private var unfilteredSnapshot: Snapshot?
    private var snapshots: [String: Snapshot] = [:]
    /// Replaced snapshots that posts may still be iterating.
    private var retired: [Snapshot] = []

    /// The last sticky event per sub-type, in the order they were posted.
    private(set) var sticky: [(subType: String?, event: any BusEvent)] = []

    init(typeName: String) {
        self.typeName = typeName
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
        count += 1
        invalidate()
    }

    /// Unlinks `node`; returns `false` if it was not linked.
    @discardableResult
    func remove(_ node: SubscriberNode) -> Bool {
        guard let list = lists[node.priority], list.remove(node) else { return false }
        count -= 1
        invalidate()
        return true
    }

    /// Live subscribers in delivery order: priority, then registration order.
    var nodes: some Sequence<SubscriberNode> {
        priorities.lazy.flatMap { self.lists[$0]! }
    }

    /// Retires the cached snapshots; the next post of each key builds a new one.
    private func invalidate() {
        retired.removeAll { !$0.isRead }
        if let unfilteredSnapshot, unfilteredSnapshot.isRead { retired.append(unfilteredSnapshot) }
        retired.append(contentsOf: snapshots.values.lazy.filter(\.isRead))
        unfilteredSnapshot = nil
        snapshots.removeAll(keepingCapacity: true)
    }

    /// Every snapshot that a post may be iterating now. A snapshot not in this list
    /// cannot gain a reader that sees a node removed before this call.
    var snapshotsBeingRead: [Snapshot] {
        var result = retired.filter(\.isRead)
        if let unfilteredSnapshot, unfilteredSnapshot.isRead { result.append(unfilteredSnapshot) }
        result.append(contentsOf: snapshots.values.lazy.filter(\.isRead))
        return result
    }

    // MARK: Snapshots

    /// The snapshot for events of `subType`, rebuilt if a change made it stale.
    /// Subscribers whose owner is gone are dropped from the list on the way, and
    /// returned so their removal hooks can run outside the lock.
    func snapshot(for subType: String?, purged: inout [SubscriberNode]) -> Snapshot {
        if let subType {
            if let cached = snapshots[subType] { return cached }
        } else if let cached = unfilteredSnapshot {
            return cached
        }
        purgeDeadOwners(into: &purged)
        var matching = ContiguousArray<SubscriberNode>()
        matching.reserveCapacity(count)
        for node in nodes where node.accepts(subType: subType) {
            matching.append(node)
        }
        let snapshot = Snapshot(nodes: matching)
        if let subType {
            snapshots[subType] = snapshot
        } else {
            unfilteredSnapshot = snapshot
        }
        return snapshot
    }

    private func purgeDeadOwners(into purged: inout [SubscriberNode]) {
        for node in Array(nodes) where node.ownerIsGone {
            if !node.disposed.exchange(true, ordering: .sequentiallyConsistent) {
                remove(node)
                purged.append(node)
            }
        }
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

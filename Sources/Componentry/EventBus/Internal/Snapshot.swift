import Synchronization

/// An immutable, ordered copy of the subscribers that receive one (type, sub-type) key.
///
/// Posts iterate a snapshot without holding the bus lock. A snapshot is rebuilt only
/// after a subscribe or dispose, so a post in steady state reuses it and allocates
/// nothing. `readers` counts the posts iterating it; it is raised only under the bus
/// lock while the snapshot is current, so once a snapshot is retired (replaced after a
/// change) its count only falls — which is what `dispose()` waits on.
final class Snapshot: Sendable {
    let nodes: ContiguousArray<SubscriberNode>
    let readers = Atomic<Int>(0)

    init(nodes: ContiguousArray<SubscriberNode>) {
        self.nodes = nodes
    }

    var isRead: Bool {
        readers.load(ordering: .sequentiallyConsistent) > 0
    }
}

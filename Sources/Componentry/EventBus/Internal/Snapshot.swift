/// An immutable, ordered copy of the subscribers that receive one (type, sub-type) key.
///
/// Posts iterate a snapshot without holding the bus lock. A snapshot is rebuilt only
/// after a subscribe or dispose, so a post in steady state reuses it and allocates
/// nothing.
final class Snapshot: Sendable {
    let nodes: ContiguousArray<SubscriberNode>

    init(nodes: ContiguousArray<SubscriberNode>) {
        self.nodes = nodes
    }
}

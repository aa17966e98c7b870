/// An immutable, ordered copy of the subscribers that receive one (type, sub-type) key.
///
/// Posts iterate a snapshot without holding the bus lock: a post names the snapshot in its
/// ``DeliveryFrame``'s slot while it holds the bus lock, and the ``TypeRegistry`` keeps a
/// snapshot it dropped until no slot names it. A snapshot is rebuilt only after a
/// subscribe or dispose.
typealias Snapshot = TargetList<SubscriberNode>

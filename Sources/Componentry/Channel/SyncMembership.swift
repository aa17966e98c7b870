import Locking

/// A ``Syncable`` object's place in a ``SyncChannel``'s pool: the object holds it, and
/// when it is deallocated — with the object — the object leaves the pool.
///
/// Declare one in each syncable class; it is empty until the object joins:
///
/// ```swift
/// let membership = SyncMembership()
/// ```
///
/// A membership joins one channel, once: joining again the same channel does nothing,
/// joining another one is a programming error. Thread-safe.
public final class SyncMembership: Sendable {
    /// Where the object joined.
    struct Joined: Sendable {
        let channel: SyncChannel
        let identity: SyncIdentity
        let serial: UInt64
        let keys: SyncKeyTable
    }

    private let joined = Locked<Joined?>(nil)

    /// An empty membership, not in any pool yet.
    public init() {}

    /// The channel the object joined, or `nil` before it joins.
    public var channel: SyncChannel? {
        joined.withLock { $0?.channel }
    }

    var current: Joined? {
        joined.withLock { $0 }
    }

    /// Joins with what `join` returns, unless already joined to `channel`.
    func join(_ channel: SyncChannel, _ join: () -> Joined) {
        joined.withLock { joined in
            if let existing = joined {
                precondition(existing.channel === channel, "an object joins one SyncChannel only")
                return
            }
            joined = join()
        }
    }

    deinit {
        guard let joined = joined.withLock({ $0 }) else { return }
        joined.channel.leave(joined.serial, at: joined.identity)
    }
}

/// The objects that joined a channel, in one bucket per identity (``SyncType`` and id),
/// so an emit reads only the bucket of the entity it names, however many other objects
/// the pool holds.
///
/// Entries hold their objects weakly and leave when their object's ``SyncMembership``
/// is deallocated — with the object, in the usual case — and a bucket left empty goes
/// with its last entry, so nothing accumulates. An entry whose object is gone while its
/// membership lives on (someone else kept the membership) is purged by the next emit
/// that reads its bucket.
struct SyncPool {
    /// One pooled object.
    struct Entry: Sendable {
        /// Tells entries apart, never reused: the membership's handle for leaving.
        let serial: UInt64
        /// A ``Syncable`` object: isolated to the main actor, so `Sendable` — any thread
        /// may load the reference, only the main actor can touch the object's properties.
        weak var object: (any AnyObject & Sendable)?
        /// How the object's class applies keys.
        let keys: SyncKeyTable
    }

    /// The entries of one identity, in joining order.
    typealias Bucket = ContiguousArray<Entry>

    private var buckets: [SyncIdentity: Bucket] = [:]
    private var lastSerial: UInt64 = 0

    /// The entries of `identity`, or `nil` when none has joined.
    subscript(identity: SyncIdentity) -> Bucket? {
        buckets[identity]
    }

    /// Adds `object`, whose class applies keys as `keys` says; returns the entry's serial.
    mutating func insert(_ object: any AnyObject & Sendable, keys: SyncKeyTable, at identity: SyncIdentity) -> UInt64 {
        lastSerial += 1
        buckets[identity, default: []].append(Entry(serial: lastSerial, object: object, keys: keys))
        return lastSerial
    }

    /// Removes the entries with `serials` (those still present) from `identity`'s bucket,
    /// and the bucket when it is left empty.
    mutating func remove(_ serials: some Sequence<UInt64>, at identity: SyncIdentity) {
        guard let index = buckets.index(forKey: identity) else { return }
        buckets.values[index].removeAll { serials.contains($0.serial) }
        if buckets.values[index].isEmpty { buckets.remove(at: index) }
    }

    /// Entries per type, and identities. Counts entries without loading their objects.
    var snapshot: SyncPoolSnapshot {
        var counts: [String: Int] = [:]
        for (identity, bucket) in buckets {
            counts[identity.typeName, default: 0] += bucket.count
        }
        return SyncPoolSnapshot(objectCounts: counts, identityCount: buckets.count)
    }
}

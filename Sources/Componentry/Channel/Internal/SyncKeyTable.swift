import Locking

/// The keys one ``Syncable`` class accepts, frozen from its ``SyncKeyMap``: an array
/// indexed by interned key, so finding how an object applies a key is one bounds check
/// and one load.
///
/// Built the first time an object of the class joins a channel, and cached for the
/// process's life; every pool entry points to its class's table.
final class SyncKeyTable: Sendable {
    /// Sets the value `value` points to (of the key's value type) on `object` (an instance
    /// of the class, or a subclass), on the main actor, where its properties live.
    typealias Apply = @MainActor (_ object: AnyObject, _ value: UnsafeRawPointer) -> Void

    private let bindings: [Apply?]

    private init(_ bindings: [Int: Apply]) {
        var table = [Apply?](repeating: nil, count: (bindings.keys.max() ?? -1) + 1)
        for (key, apply) in bindings { table[key] = apply }
        self.bindings = table
    }

    /// How objects of the class apply the key with interned index `key`; `nil` when they
    /// do not accept it.
    subscript(key: Int) -> Apply? {
        key < bindings.count ? bindings[key] : nil
    }

    private static let cache = Locked<[ObjectIdentifier: SyncKeyTable]>([:])

    /// The table of `Object`'s keys, built from its ``Syncable/registerSyncKeys(in:)`` the
    /// first time, and checked then against `object`, an instance.
    @MainActor
    static func of<Object: Syncable>(_ type: Object.Type, checking object: Object) -> SyncKeyTable {
        let id = ObjectIdentifier(type)
        if let table = cache.withLock({ $0[id] }) { return table }
        precondition(
            Object.ID.self != ObjectIdentifier.self,
            "\(Object.self) is Syncable but declares no id: it would sync with no other object"
        )
        precondition(object is Object.Target, "\(Object.self) registers sync keys for \(Object.Target.self), which it is not")
        var map = SyncKeyMap<Object.Target>()
        Object.registerSyncKeys(in: &map)  // outside the lock: it may make keys, which lock
        let table = SyncKeyTable(map.bindings)
        return cache.withLock { cache in
            if let raced = cache[id] { return raced }
            cache[id] = table
            return table
        }
    }
}

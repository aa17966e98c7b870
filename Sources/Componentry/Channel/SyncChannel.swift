import Dispatch
import Foundation
import Locking

/// Keeps the live copies of an entity in sync: a change emitted for a ``SyncType`` and an
/// id reaches every object of that identity in the pool, whatever its class.
///
/// The same user is often held by several objects — a list row, a detail page, a header —
/// each decoded on its own. Each joins the channel's pool; when one changes, an emit
/// updates all of them, each through the property its class binds to the key:
///
/// ```swift
/// extension SyncType<String> { static var user: Self { Self("user") } }
/// extension SyncKey<Bool> { static var followed: Self { Self("followed") } }
///
/// let row = UserRow(id: "42")           // joins SyncChannel.shared in its init
/// let header = ProfileHeader(id: "42")  // another class, the same entity
/// row.emit(.followed, true)             // row, then header, updated when this returns
/// SyncChannel.shared.emit(.followed, false, to: .user, id: "42")  // from anywhere
/// ```
///
/// ## Pool
/// Objects join with ``Syncable/join(_:)`` (one line in an init) or `channel.join(models)`
/// (where models are decoded), and leave when they are deallocated: the pool holds them
/// weakly, in one bucket per identity, and removes an entry when the object's
/// ``SyncMembership`` goes. An emit reads one bucket, so its cost does not depend on how
/// many other objects the pool holds.
///
/// ## Keys
/// A ``SyncKey`` is applied to an object only if its class binds it
/// (``Syncable/registerSyncKeys(in:)``); any other object is skipped, never trapped on,
/// and the ``tracer`` lists it.
///
/// ## Threads
/// ``Syncable`` classes are isolated to the main actor, so the compiler checks that their
/// properties — the ones keys are bound to included — are only read and set there; the
/// channel applies updates there too. An emit made on the main actor applies before it
/// returns; ``emit(_:_:to:id:)`` made on any other thread is handed over to the main
/// queue and applied there, in the order it was made on that thread. An emit made while
/// the channel applies another (by an observer of a ``Synced`` property) is applied right
/// after it, before the outer emit returns, so every copy ends with the value emitted
/// last. Objects join on the main actor, and leave from wherever they are deallocated.
///
/// ## Debugging
/// ``tracer`` sees every emit applied: its key and value, how many objects it updated
/// and which it skipped; ``snapshot()`` counts the pool's objects per type.
public final class SyncChannel: Sendable {
    /// A process-wide channel.
    public static let shared = SyncChannel()

    struct State {
        var pool = SyncPool()
        /// The main actor is applying an emit; emits made meanwhile wait in `pending`.
        var applying = false
        var pending: ContiguousArray<@MainActor () -> Void> = []
        var tracer: (@Sendable (SyncTrace) -> Void)?

        /// Makes the caller the applier; `false` when an emit is being applied already.
        mutating func begin() -> Bool {
            guard !applying else { return false }
            applying = true
            return true
        }

        /// The next emit that waited, or `nil` (and the applier's turn ends) when none did.
        mutating func next() -> (@MainActor () -> Void)? {
            guard !pending.isEmpty else {
                applying = false
                return nil
            }
            return pending.removeFirst()
        }
    }

    /// One emit, with its value type erased.
    struct Emission: Sendable {
        let key: Int
        let keyName: String
        let identity: SyncIdentity
        let source: SyncObject?
        /// The serial of the source's own entry, which set the value itself.
        let excluding: UInt64?
        /// The source does not accept the key.
        let sourceSkipped: Bool

        init<Value>(
            key: SyncKey<Value>, identity: SyncIdentity, source: SyncObject? = nil, excluding: UInt64? = nil,
            sourceSkipped: Bool = false
        ) {
            self.key = key.index
            self.keyName = key.name
            self.identity = identity
            self.source = source
            self.excluding = excluding
            self.sourceSkipped = sourceSkipped
        }
    }

    let state = Locked(State())

    /// Creates a channel with an empty pool.
    public init() {}

    // MARK: Joining

    /// Adds `object` to the pool and returns it: from now until it is deallocated, every
    /// emit for its type and id reaches it. Joining this channel again does nothing; an
    /// object joins one channel only. ``Syncable/join(_:)`` is the shortcut.
    @MainActor
    @discardableResult
    public func join<Object: Syncable>(_ object: Object) -> Object {
        let keys = SyncKeyTable.of(Object.self, checking: object)
        let identity = SyncIdentity(type: Object.syncType, id: object.id)
        object.membership.join(self) {
            let serial = state.withLock { $0.pool.insert(object, keys: keys, at: identity) }
            return SyncMembership.Joined(channel: self, identity: identity, serial: serial, keys: keys)
        }
        return object
    }

    /// Adds every object of `objects` to the pool and returns them: the one line the code
    /// that decodes models needs.
    ///
    /// ```swift
    /// let rows = channel.join(try JSONDecoder().decode([UserRow].self, from: data))
    /// ```
    @MainActor
    @discardableResult
    public func join<Objects: Sequence>(_ objects: Objects) -> Objects where Objects.Element: Syncable {
        for object in objects { join(object) }
        return objects
    }

    func leave(_ serial: UInt64, at identity: SyncIdentity) {
        state.withLock { $0.pool.remove(CollectionOfOne(serial), at: identity) }
    }

    // MARK: Emitting

    /// Sets `value` for `key` on every live object of type `type` with id `id` whose class
    /// accepts the key; the changes are synced from no object (`.synced(from: nil)`). The
    /// id has the type `type` declares.
    ///
    /// Called on the main actor, the objects are updated — and observers of their
    /// ``Synced`` properties that run there have run — when this returns; called anywhere
    /// else, it returns at once and the update is applied on the main queue.
    public func emit<ID, Value: Sendable>(_ key: SyncKey<Value>, _ value: Value, to type: SyncType<ID>, id: ID) {
        let emission = Emission(key: key, identity: SyncIdentity(type: type, id: id))
        guard Self.isOnMainActor else {
            return DispatchQueue.main.async { MainActor.assumeIsolated { self.send(emission, value) } }
        }
        MainActor.assumeIsolated { send(emission, value) }
    }

    /// Whether this code runs on the main actor: on the main thread, or on the thread that
    /// runs the main queue's work where the main thread does not (as on Linux after
    /// `dispatchMain()`). Emits handed over from other threads are applied when the main
    /// queue runs: a process needs a run loop or `dispatchMain()`, as apps and test
    /// runners have.
    private static var isOnMainActor: Bool {
        Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) == true
    }

    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Applies `emission` now if nothing is being applied, or queues it behind the emit
    /// being applied.
    @MainActor
    func send<Value: Sendable>(_ emission: Emission, _ value: Value) {
        guard state.withLock({ $0.begin() }) else {
            // Emitted by an observer of the emit being applied (only the main actor
            // applies, so that emit is this thread's): applied right after it.
            return state.withLock { $0.pending.append { self.apply(emission, value) } }
        }
        apply(emission, value)
        while let next = state.withLock({ $0.next() }) { next() }
    }

    @MainActor
    private func apply<Value: Sendable>(_ emission: Emission, _ value: Value) {
        withUnsafePointer(to: value) { apply(emission, $0) { value } }
    }

    /// The part of an emit that is not generic: sets the value `value` points to on each
    /// live entry that accepts the key, traces, and purges entries found dead. Runs without
    /// the lock, so objects may be loaded and released (and deallocated, leaving the pool)
    /// here.
    @MainActor
    private func apply(_ emission: Emission, _ value: UnsafeRawPointer, boxed: () -> any Sendable) {
        let (entries, tracer) = state.withLock { ($0.pool[emission.identity] ?? [], $0.tracer) }
        let origin = SyncOrigin.synced(from: emission.source?.id)
        var updated = 0
        var skipped: [SyncObject] = emission.sourceSkipped ? emission.source.map { [$0] } ?? [] : []
        var dead: [UInt64] = []
        entries.withUnsafeBufferPointer { entries in
            for index in entries.indices where entries[index].serial != emission.excluding {
                guard let object = entries[index].object else {
                    dead.append(entries[index].serial)
                    continue
                }
                guard let set = entries[index].keys[emission.key] else {
                    if tracer != nil { skipped.append(SyncObject(object)) }
                    continue
                }
                ApplyingOrigin.with(origin) { set(object, value) }
                updated += 1
            }
        }
        if !dead.isEmpty {
            state.withLock { $0.pool.remove(dead, at: emission.identity) }
        }
        tracer?(
            SyncTrace(
                type: emission.identity.typeName, id: emission.identity.id, key: emission.keyName, value: boxed(),
                source: emission.source, updated: updated, skipped: skipped
            ))
    }
}

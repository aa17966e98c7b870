/// Keeps the live copies of an entity in sync: a change emitted for a ``SyncType`` and an
/// id reaches every object of that identity in the pool, whatever its class.
///
/// The same user is often held by several objects — a list row, a detail page, a header —
/// each decoded on its own. Each joins the channel's pool; when one changes, an emit
/// updates all of them, each through the property its class binds to the key:
///
/// ```swift
/// extension SyncType { static let user = SyncType("user") }
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
/// Updates are applied on the channel's ``SyncExecutor`` — the main actor unless told
/// otherwise — because that is where pooled objects are used. An emit made there applies
/// before it returns; one made on any other thread is handed over and applied there. An
/// emit made while the channel applies another (by an observer of a ``Synced`` property)
/// is applied right after it, before the outer emit returns, so every copy ends with the
/// value emitted last. Joining, emitting and leaving work from any thread.
///
/// ## Debugging
/// ``tracer`` sees every emit applied: its key and value, how many objects it updated
/// and which it skipped; ``snapshot()`` counts the pool's objects per type.
public final class SyncChannel: Sendable {
    /// A process-wide channel that applies updates on the main actor.
    public static let shared = SyncChannel()

    struct State {
        var pool = SyncPool()
        /// The executor is applying an emit; emits made meanwhile wait in `pending`.
        var applying = false
        var pending: ContiguousArray<@Sendable () -> Void> = []
        var tracer: (@Sendable (SyncTrace) -> Void)?

        /// Makes the caller the applier; `false` when an emit is being applied already.
        mutating func begin() -> Bool {
            guard !applying else { return false }
            applying = true
            return true
        }

        /// The next emit that waited, or `nil` (and the applier's turn ends) when none did.
        mutating func next() -> (@Sendable () -> Void)? {
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
    let executor: SyncExecutor

    /// Creates a channel with an empty pool, which applies updates on `executor`.
    public init(executor: SyncExecutor = .mainActor) {
        self.executor = executor
    }

    // MARK: Joining

    /// Adds `object` to the pool and returns it: from now until it is deallocated, every
    /// emit for its type and id reaches it. Joining this channel again does nothing; an
    /// object joins one channel only. Thread-safe; ``Syncable/join(_:)`` is the shortcut.
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
    /// accepts the key; the changes are synced from no object (`.synced(from: nil)`).
    ///
    /// Called on the channel's executor, the objects are updated — and observers of their
    /// ``Synced`` properties that run there have run — when this returns; called anywhere
    /// else, it returns at once and the update is applied on the executor.
    public func emit<Value: Sendable>(_ key: SyncKey<Value>, _ value: Value, to type: SyncType, id: some Hashable & Sendable) {
        send(Emission(key: key, identity: SyncIdentity(type: type, id: id)), value)
    }

    /// Applies `emission` now if this is the executor and nothing is being applied,
    /// queues it behind the emit being applied, or hands it to the executor.
    func send<Value: Sendable>(_ emission: Emission, _ value: Value) {
        guard executor.isCurrent() else {
            return executor.enqueue { self.send(emission, value) }
        }
        guard state.withLock({ $0.begin() }) else {
            // Emitted by an observer of the emit being applied (only the executor applies,
            // so that emit is this thread's): applied right after it.
            return state.withLock { $0.pending.append { self.apply(emission, value) } }
        }
        apply(emission, value)
        while let next = state.withLock({ $0.next() }) { next() }
    }

    private func apply<Value: Sendable>(_ emission: Emission, _ value: Value) {
        withUnsafePointer(to: value) { apply(emission, $0) { value } }
    }

    /// The part of an emit that is not generic: sets the value `value` points to on each
    /// live entry that accepts the key, traces, and purges entries found dead. Runs on the
    /// executor, without the lock, so objects may be loaded and released (and
    /// deallocated, leaving the pool) here.
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
        tracer?(SyncTrace(
            type: emission.identity.type, id: emission.identity.id, key: emission.keyName, value: boxed(),
            source: emission.source, updated: updated, skipped: skipped
        ))
    }
}

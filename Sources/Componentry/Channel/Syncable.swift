/// A model class whose live copies a ``SyncChannel`` keeps in sync: every object of any
/// class that stands for the same entity — same ``syncType``, same `id` — hears a change
/// emitted for it.
///
/// A conforming class names its entity type, keeps a ``SyncMembership``, and binds the
/// keys it accepts to its own properties; ``Synced`` properties can be observed:
///
/// ```swift
/// final class UserRow: Syncable {
///     static let syncType = SyncType.user
///     let id: String
///     let membership = SyncMembership()
///     @Synced var followed = false
///
///     static func registerSyncKeys(in keys: inout SyncKeyMap<UserRow>) {
///         keys.bind(.followed, to: \.followed)
///     }
///
///     init(id: String) {
///         self.id = id
///         join()                       // or: the decoding code calls channel.join(rows)
///     }
/// }
///
/// row.emit(.followed, true)            // this row, then every live copy of user `id`
/// ```
///
/// The `id` (from `Identifiable`) must be declared by the class — the default object
/// identity of `Identifiable` classes names no entity, and joining traps on it — and must
/// not change after joining; its type is the one the ``SyncType`` declares, which the
/// compiler checks, so every class of an entity has the same id type.
///
/// The protocol is isolated to the main actor, and so are the classes that adopt it:
/// the compiler checks that their properties — those bound to keys, `@Synced` or plain —
/// are set on the main actor only, where the channel sets them too. Code on other
/// threads reaches the objects through ``SyncChannel/emit(_:_:to:id:)``.
///
/// The library asks a class for its keys once, the first time one of its objects joins,
/// and keeps the table. A subclass shares its superclass's keys; declare
/// `registerSyncKeys` as a `class func` to let subclasses override it.
@MainActor
public protocol Syncable: AnyObject, Identifiable, Sendable where ID: Sendable {
    /// The type the key bindings set properties of: the conforming class. Inferred from
    /// ``registerSyncKeys(in:)``.
    associatedtype Target: AnyObject & Sendable = Self

    /// The kind of entity objects of this class stand for, whose ids have the type of
    /// this class's `id`.
    static var syncType: SyncType<ID> { get }

    /// The object's place in a channel's pool; declare `let membership = SyncMembership()`.
    var membership: SyncMembership { get }

    /// Binds, in `keys`, each key objects of this class accept to the property it sets;
    /// called once per class.
    static func registerSyncKeys(in keys: inout SyncKeyMap<Target>)
}

extension Syncable {
    /// Joins `channel`'s pool: from now until this object is deallocated, every emit for
    /// its type and id reaches it. Joining again does nothing.
    public func join(_ channel: SyncChannel = .shared) {
        channel.join(self)
    }

    /// Sets `value` for `key` on this object — a ``SyncOrigin/local`` change — then emits
    /// it to every other live copy of this entity, where it is a change synced from this
    /// object (`.synced(from: self)`).
    ///
    /// Emits on the channel this object joined, or on ``SyncChannel/shared`` before it
    /// joins. The copies are updated before this returns. If this class does not accept
    /// `key`, this object is skipped (the trace says so) and the copies are still updated.
    public func emit<Value: Sendable>(_ key: SyncKey<Value>, _ value: Value) {
        let joined = membership.current
        let apply = (joined?.keys ?? SyncKeyTable.of(Self.self, checking: self))[key.index]
        if let apply {
            withUnsafePointer(to: value) { value in ApplyingOrigin.with(.local) { apply(self, value) } }
        }
        let emission = SyncChannel.Emission(
            key: key, identity: joined?.identity ?? SyncIdentity(type: Self.syncType, id: id),
            source: SyncObject(self), excluding: joined?.serial, sourceSkipped: apply == nil
        )
        (joined?.channel ?? .shared).send(emission, value)
    }
}

/// The keys a ``Syncable`` class accepts, each bound to one of its own writable
/// properties.
///
/// A class fills its map once, in ``Syncable/registerSyncKeys(in:)``; a binding may name
/// a property called differently from the key, which is how a class translates the keys
/// of other classes to its own fields:
///
/// ```swift
/// static func registerSyncKeys(in keys: inout SyncKeyMap<UserHeader>) {
///     keys.bind(.followed, to: \.isFollowing)
///     keys.bind(.likes, to: \.likeCount)
/// }
/// ```
///
/// Key and property types are checked against each other at compile time. A key the map
/// does not bind is not accepted: an object of the class is skipped for it (and the
/// channel's trace says so). Binding a key a second time replaces the first binding.
public struct SyncKeyMap<Target: AnyObject & Sendable> {
    var bindings: [Int: SyncKeyTable.Apply] = [:]

    init() {}

    /// Accepts `key`: a channel applies its values by setting `property`, on the main
    /// actor, where the class's properties are isolated.
    @MainActor
    public mutating func bind<Value: Sendable>(_ key: SyncKey<Value>, to property: ReferenceWritableKeyPath<Target, Value>) {
        bindings[key.index] = { object, value in
            unsafeDowncast(object, to: Target.self)[keyPath: property] = value.assumingMemoryBound(to: Value.self).pointee
        }
    }
}

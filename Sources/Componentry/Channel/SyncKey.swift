/// The name of a field that a ``SyncChannel`` syncs, typed by its value.
///
/// Declare each key once, as a static member, so emitters and the classes that accept it
/// name it the same way and the value type is checked at both ends:
///
/// ```swift
/// extension SyncKey<Bool> {
///     static var followed: Self { Self("followed") }
/// }
///
/// row.emit(.followed, true)                        // a Bool, checked
/// keys.bind(.followed, to: \.isFollowed)           // a Bool property, checked
/// ```
///
/// Keys are told apart by name and value type together: `SyncKey<Int>("followed")` is
/// another key, which a class that binds the `Bool` one does not accept. Each distinct key
/// is interned once, to a small integer that pooled objects' key tables are indexed by, so
/// applying a key to an object hashes no string.
public struct SyncKey<Value: Sendable>: Hashable, Sendable, CustomStringConvertible {
    let interned: InternedName

    /// The key called `name`, for values of type `Value`.
    public init(_ name: String) {
        interned = InternedName(text: name, index: InternedNames.keys.index(of: name, valueType: Value.self))
    }

    /// The key's name, as traces report it.
    public var name: String { interned.text }
    var index: Int { interned.index }
    public var description: String { name }
}

/// The kind of entity a pooled object stands for — a user, a post, a comment — and the
/// type of its ids: the first half of its identity in a ``SyncChannel``, the entity's id
/// being the second.
///
/// Declare each type once, with its id type; classes that stand for the same entity name
/// the same type, whatever their own class, and must declare ids of that type:
///
/// ```swift
/// extension SyncType<String> {
///     static var user: Self { Self("user") }  // users have String ids
/// }
///
/// channel.emit(.followed, true, to: .user, id: "42")  // id: 42 does not compile
/// ```
///
/// Types are told apart by name; a name is declared with one id type only — making it
/// with another is a programming error, which traps — so an emit and the objects it is
/// for can never disagree on the type of an id. Each name is interned once, to a small
/// integer that the pool hashes and compares instead of the string.
public struct SyncType<ID: Hashable & Sendable>: Hashable, Sendable, CustomStringConvertible {
    let interned: InternedName

    /// The type called `name`, whose entities have ids of type `ID`.
    ///
    /// - Precondition: `name` is not declared with another id type.
    public init(_ name: String) {
        interned = InternedName(text: name, index: InternedNames.types.index(of: name, onlyWith: ID.self))
    }

    /// The type's name, as traces and snapshots report it.
    public var name: String { interned.text }
    var index: Int { interned.index }
    public var description: String { name }
}

/// The kind of entity a pooled object stands for — a user, a post, a comment — the first
/// half of its identity in a ``SyncChannel``; the entity's id is the second.
///
/// Declare each type once; classes that stand for the same entity name the same type,
/// whatever their own class:
///
/// ```swift
/// extension SyncType {
///     static let user = SyncType("user")
/// }
/// ```
///
/// Types are told apart by name. Each distinct name is interned once, to a small integer
/// that the pool hashes and compares instead of the string.
public struct SyncType: Hashable, Sendable, CustomStringConvertible {
    /// The type's name, as traces and snapshots report it.
    public let name: String
    let index: Int

    /// The type called `name`.
    public init(_ name: String) {
        self.name = name
        index = InternedNames.types.index(of: name)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.index == rhs.index
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(index)
    }

    public var description: String {
        name
    }
}

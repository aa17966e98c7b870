/// A name a ``SyncChannel`` interned to a small integer (see ``InternedNames``): a key's or
/// an entity type's. Equal and hashed by the integer, so that comparing or hashing one reads
/// no string.
struct InternedName: Hashable, Sendable {
    let text: String
    let index: Int

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.index == rhs.index }

    func hash(into hasher: inout Hasher) { hasher.combine(index) }
}

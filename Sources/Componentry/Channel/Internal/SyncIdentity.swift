/// What makes pooled objects copies of one entity: its ``SyncType`` and its id.
///
/// Ids are compared by value and type: two ids are equal only when they have the same
/// type and are `==`, so the classes that stand for one entity must use the same id type.
/// The id's hash is computed once, when the identity is made; the pool's lookups hash and
/// compare it (and the interned type) before comparing ids through their erased type.
struct SyncIdentity: Hashable, Sendable, CustomStringConvertible {
    let type: SyncType
    let id: any Hashable & Sendable
    private let idHash: Int

    init(type: SyncType, id: any Hashable & Sendable) {
        self.type = type
        self.id = id
        idHash = id.hashValue
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.idHash == rhs.idHash && lhs.type == rhs.type && lhs.id.isEqual(to: rhs.id)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(idHash)
    }

    var description: String {
        "\(type)[\(id)]"
    }
}

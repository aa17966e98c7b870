/// What makes pooled objects copies of one entity: its ``SyncType`` and its id.
///
/// The id's type is the one the ``SyncType`` declares, so ids compare by value. The id's
/// hash is computed once, when the identity is made; the pool's lookups hash and compare
/// it (and the interned type) before comparing ids through their erased type.
struct SyncIdentity: Hashable, Sendable, CustomStringConvertible {
    /// The interned ``SyncType``.
    let type: Int
    let typeName: String
    let id: any Hashable & Sendable
    private let idHash: Int

    init<ID>(type: SyncType<ID>, id: ID) {
        self.type = type.index
        typeName = type.name
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
        "\(typeName)[\(id)]"
    }
}

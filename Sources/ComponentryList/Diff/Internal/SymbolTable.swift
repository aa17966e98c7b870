/// Interns identities as dense `Int` symbols, so each identity is hashed once and the
/// rest of the diff works on contiguous arrays of `Int`.
@usableFromInline
struct SymbolTable<Key: Hashable> {
    @usableFromInline var table: [Key: Int]

    @inlinable
    init(capacity: Int) {
        table = Dictionary(minimumCapacity: capacity)
    }

    /// The number of distinct keys seen so far.
    @inlinable
    var count: Int { table.count }

    /// The symbol of `key`, new if `key` was not seen before; one hash lookup.
    @inlinable
    mutating func symbol(for key: Key) -> Int {
        let next = table.count
        return Self.read(&table[key, default: next])
    }

    @inlinable
    static func read(_ value: inout Int) -> Int { value }
}

import Locking

/// Names interned to small integers: each distinct name (with, for keys, its value type)
/// gets the next integer the first time it is seen, and keeps it for the process's life.
///
/// ``SyncType`` and ``SyncKey`` intern their names when they are made, so the pool hashes
/// and compares integers and key tables are arrays indexed by key; the string is hashed
/// once per key or type made, never per pooled object.
final class InternedNames: Sendable {
    private struct Name: Hashable {
        let name: String
        let valueType: ObjectIdentifier?
    }

    /// The names of ``SyncType``s, each with the one id type it is declared with.
    static let types = InternedNames()
    /// The names of ``SyncKey``s, with their value types.
    static let keys = InternedNames()

    private let indices = Locked<[Name: Int]>([:])
    /// For names interned with ``index(of:onlyWith:)``: the value type of each.
    private let onlyTypes = Locked<[String: ObjectIdentifier]>([:])

    /// The integer for `name` and `valueType`: the same one every time, counting up from 0
    /// in the order names are first seen.
    func index(of name: String, valueType: Any.Type? = nil) -> Int {
        let name = Name(name: name, valueType: valueType.map(ObjectIdentifier.init))
        return indices.withLock { indices in
            if let index = indices[name] { return index }
            let index = indices.count
            indices[name] = index
            return index
        }
    }

    /// The integer for `name`, which is only ever interned with `valueType`.
    ///
    /// - Precondition: `name` was not interned with another value type.
    func index(of name: String, onlyWith valueType: Any.Type) -> Int {
        let type = ObjectIdentifier(valueType)
        let first = onlyTypes.withLock { only in
            if let first = only[name] { return first }
            only[name] = type
            return type
        }
        precondition(first == type, "SyncType \"\(name)\" is declared with ids of two types; one entity has one id type")
        return index(of: name)
    }
}

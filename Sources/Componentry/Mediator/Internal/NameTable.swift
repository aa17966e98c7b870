/// Values by name: targets in a registry, actions in a target.
///
/// A call looks a target and an action up by name. While a table is small, comparing the
/// name with each entry's (a couple of machine words for a short name) is faster than
/// hashing it; beyond `scanLimit` entries a hash index takes over.
struct NameTable<Value> {
    private static var scanLimit: Int { 16 }

    /// The names, in insertion order.
    private(set) var names: [String] = []
    private var values: [Value] = []
    /// Name -> index, once the table outgrows a scan.
    private var index: [String: Int]?

    /// The value named `name`.
    subscript(name: String) -> Value? {
        if let index { return index[name].map { values[$0] } }
        return names.firstIndex(of: name).map { values[$0] }
    }

    /// Adds `value` as `name`, or replaces the value already named so.
    mutating func set(_ value: Value, for name: String) {
        if let existing = index?[name] ?? (index == nil ? names.firstIndex(of: name) : nil) {
            values[existing] = value
            return
        }
        names.append(name)
        values.append(value)
        if index != nil {
            index![name] = names.count - 1
        } else if names.count > Self.scanLimit {
            index = Dictionary(uniqueKeysWithValues: zip(names, names.indices))
        }
    }
}

extension NameTable: Sendable where Value: Sendable {}

/// Event type -> registry, as an open-addressing hash table keyed by metatype identity.
///
/// A post looks its type up once, under the bus lock; a pointer-mixing hash and linear
/// probing make that a few instructions, where `Dictionary` would run SipHash. Entries
/// are never removed: a bus knows a bounded set of event types.
struct RegistryTable {
    private var slots: [(key: ObjectIdentifier, registry: TypeRegistry)?] = Array(repeating: nil, count: 16)
    private(set) var count = 0

    subscript(type: ObjectIdentifier) -> TypeRegistry? {
        var index = home(of: type)
        while let slot = slots[index] {
            if slot.key == type { return slot.registry }
            index = (index + 1) & (slots.count - 1)
        }
        return nil
    }

    /// Adds `registry` for `type`, which must not be present yet.
    mutating func insert(_ registry: TypeRegistry, for type: ObjectIdentifier) {
        if (count + 1) * 2 > slots.count { grow() }
        var index = home(of: type)
        while slots[index] != nil { index = (index + 1) & (slots.count - 1) }
        slots[index] = (type, registry)
        count += 1
    }

    var registries: some Sequence<TypeRegistry> {
        slots.lazy.compactMap { $0?.registry }
    }

    private func home(of type: ObjectIdentifier) -> Int {
        // Fibonacci hashing: metatype addresses are aligned, so mix before masking.
        let mixed = UInt(bitPattern: type) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> (UInt.bitWidth - slots.count.trailingZeroBitCount))
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: nil, count: old.count * 2)
        count = 0
        for case let (key, registry)? in old { insert(registry, for: key) }
    }
}

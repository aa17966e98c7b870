/// A map from a type (its metatype's identity) to a value: an open-addressing hash table
/// for lookups on hot paths.
///
/// A post looks its event type up, and routing looks a responder type up at every level
/// of the chain; a pointer-mixing hash and linear probing make that a few instructions,
/// where `Dictionary` would run SipHash. Entries are never removed: a program has a
/// bounded set of types.
struct TypeTable<Value> {
    private var slots: [(key: ObjectIdentifier, value: Value)?] = Array(repeating: nil, count: 16)
    private var count = 0

    /// The value stored for `type`, or `nil` if there is none.
    @inline(__always)
    subscript(type: ObjectIdentifier) -> Value? {
        var index = home(of: type)
        while let slot = slots[index] {
            if slot.key == type { return slot.value }
            index = (index + 1) & (slots.count - 1)
        }
        return nil
    }

    /// Stores `value` for `type`, which must not be present yet.
    mutating func insert(_ value: Value, for type: ObjectIdentifier) {
        if (count + 1) * 2 > slots.count { grow() }
        var index = home(of: type)
        while slots[index] != nil { index = (index + 1) & (slots.count - 1) }
        slots[index] = (type, value)
        count += 1
    }

    /// Every stored value, in no particular order.
    var values: some Sequence<Value> {
        slots.lazy.compactMap { $0?.value }
    }

    @inline(__always)
    private func home(of type: ObjectIdentifier) -> Int {
        // Fibonacci hashing: metatype addresses are aligned, so mix before masking.
        let mixed = UInt(bitPattern: type) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> (UInt.bitWidth - slots.count.trailingZeroBitCount))
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: nil, count: old.count * 2)
        count = 0
        for case (let key, let value)? in old { insert(value, for: key) }
    }
}

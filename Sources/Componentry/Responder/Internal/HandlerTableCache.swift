/// Responder type -> the handlers it declares, as an open-addressing hash table keyed by
/// metatype identity.
///
/// Routing looks a type up at every level of the chain; a pointer-mixing hash and linear
/// probing make that a few instructions, where `Dictionary` would run SipHash. Entries are
/// never removed: an app has a bounded set of responder types.
struct HandlerTableCache {
    /// The handlers of one type; `nil` handlers for a type that declares none.
    private typealias Slot = (type: ObjectIdentifier, handlers: [ResponderEventKey: ResponderHandler]?)

    private var slots: [Slot?] = Array(repeating: nil, count: 16)
    private var count = 0

    /// The handlers cached for `type`: `.some(nil)` when it declares none, `nil` when it is
    /// not cached yet.
    subscript(type: ObjectIdentifier) -> [ResponderEventKey: ResponderHandler]?? {
        var index = home(of: type)
        while let slot = slots[index] {
            if slot.type == type { return .some(slot.handlers) }
            index = (index + 1) & (slots.count - 1)
        }
        return nil
    }

    /// Caches `handlers` for `type`, which must not be cached yet.
    mutating func insert(_ handlers: [ResponderEventKey: ResponderHandler]?, for type: ObjectIdentifier) {
        if (count + 1) * 2 > slots.count { grow() }
        var index = home(of: type)
        while slots[index] != nil { index = (index + 1) & (slots.count - 1) }
        slots[index] = (type, handlers)
        count += 1
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
        for case let (type, handlers)? in old { insert(handlers, for: type) }
    }
}

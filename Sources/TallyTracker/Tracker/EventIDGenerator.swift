import Foundation

/// Random version-4 UUIDs from xoshiro256**, seeded once from the system's secure source.
///
/// Foundation's `UUID()` costs a system call (several microseconds on Linux), too slow for
/// the `track` hot path. Event ids only need to be unique, not unpredictable, and 256 bits
/// of random seed per tracker make collisions as unlikely as with `UUID()`.
struct EventIDGenerator {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    init() {
        var system = SystemRandomNumberGenerator()
        state = (system.next(), system.next(), system.next(), system.next())
    }

    mutating func next() -> UUID {
        let high = nextWord() & 0xFFFF_FFFF_FFFF_0FFF | 0x0000_0000_0000_4000 // version 4
        let low = nextWord() & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000 // RFC 4122 variant
        return withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { UUID(uuid: $0.load(as: uuid_t.self)) }
    }

    private mutating func nextWord() -> UInt64 {
        let result = (state.1 &* 5).rotatedLeft(by: 7) &* 9
        let shifted = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= shifted
        state.3 = state.3.rotatedLeft(by: 45)
        return result
    }
}

private extension UInt64 {
    func rotatedLeft(by count: UInt64) -> UInt64 { self << count | self >> (64 - count) }
}

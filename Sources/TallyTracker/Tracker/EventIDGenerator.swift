import Foundation
import TallyEvent

/// Time-ordered version-7 UUIDs (RFC 9562): the event's Unix time in milliseconds, then 74
/// bits from xoshiro256**, seeded once from the system's secure source.
///
/// Time order keeps the collector's id index append-mostly: ids of one period land on the
/// same few index pages instead of one random page each. Foundation's `UUID()` costs a system
/// call (several microseconds on Linux), too slow for the `track` hot path. Event ids only
/// need to be unique, not unpredictable, and 74 random bits per millisecond from 256 bits of
/// seed per tracker make a collision as unlikely as with `UUID()`.
struct EventIDGenerator {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    init() {
        var system = SystemRandomNumberGenerator()
        state = (system.next(), system.next(), system.next(), system.next())
    }

    /// A new id for something that happened at `date`.
    mutating func next(at date: Date) -> UUID {
        let milliseconds = UInt64(max(0, (date.timeIntervalSince1970 * 1000).rounded())) & 0xFFFF_FFFF_FFFF
        let high = milliseconds << 16 | 0x7000 | nextWord() & 0x0FFF  // version 7
        let low = nextWord() & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000  // RFC 9562 variant
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

extension UInt64 {
    fileprivate func rotatedLeft(by count: UInt64) -> UInt64 { self << count | self >> (64 - count) }
}

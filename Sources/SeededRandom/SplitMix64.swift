/// SplitMix64: a tiny, fast generator whose whole output follows from its seed.
///
/// For what must come out the same on every run: property tests (a failing seed
/// reproduces), benchmark workloads, and the demo data of `tally serve --demo`. Not for
/// anything that needs unpredictability.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let amount = Double.random(in: 1...100, using: &random)
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator whose output is determined by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

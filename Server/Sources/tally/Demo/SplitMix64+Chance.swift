import SeededRandom

extension SplitMix64 {
    /// `true` with probability `p`.
    mutating func chance(_ p: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < p
    }
}

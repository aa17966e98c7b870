extension Equatable {
    /// `true` when `other` is a `Self` equal to this value: `==` across an erased type.
    func isEqual(to other: Any) -> Bool {
        (other as? Self) == self
    }
}

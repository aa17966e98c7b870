extension ComponentOrder: ExpressibleByArrayLiteral {
    /// A layout showing the listed identifiers, in order.
    public init(arrayLiteral identifiers: String...) {
        self.init(identifiers)
    }
}

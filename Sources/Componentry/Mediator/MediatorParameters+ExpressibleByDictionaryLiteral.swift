extension MediatorParameters: ExpressibleByDictionaryLiteral {
    /// Parameters from a literal: `["bookID": 42]`.
    @inlinable
    public init(dictionaryLiteral elements: (String, any Sendable)...) {
        self.init(entries: elements)
    }
}

extension Synced: Decodable where Value: Decodable {
    /// Decodes the value as a single value — the shape of a plain property — so a model
    /// whose `Decodable` conformance is synthesized decodes its synced properties as it
    /// would plain ones.
    public init(from decoder: any Decoder) throws {
        self.init(wrappedValue: try Value(from: decoder))
    }
}

extension Synced: Encodable where Value: Encodable {
    /// Encodes the value as a single value, as a plain property would be.
    public func encode(to encoder: any Encoder) throws {
        try wrappedValue.encode(to: encoder)
    }
}

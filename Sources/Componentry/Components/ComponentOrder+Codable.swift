extension ComponentOrder: Codable {
    private enum CodingKeys: String, CodingKey {
        case identifiers, hidden
    }

    /// Decodes a plain list of identifiers, or an object with `identifiers` and,
    /// optionally, `hidden`.
    public init(from decoder: any Decoder) throws {
        if let identifiers = try? decoder.singleValueContainer().decode([String].self) {
            self.init(identifiers)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try container.decode([String].self, forKey: .identifiers),
            hidden: try container.decodeIfPresent(Set<String>.self, forKey: .hidden) ?? []
        )
    }

    /// Encodes an object with `identifiers` and `hidden` (sorted, so the output is stable).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(identifiers, forKey: .identifiers)
        try container.encode(hidden.sorted(), forKey: .hidden)
    }
}

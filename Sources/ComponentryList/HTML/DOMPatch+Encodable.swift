extension DOMPatch: Encodable {
    private enum CodingKeys: String, CodingKey {
        case op, id, parent, index, html, newId
    }

    /// Encodes as the script reads it: `{"op": "insert", "parent": …, "index": …, "html": …}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .insert(let parent, let index, let html):
            try container.encode("insert", forKey: .op)
            try container.encode(parent, forKey: .parent)
            try container.encode(index, forKey: .index)
            try container.encode(html, forKey: .html)
        case .remove(let id):
            try container.encode("remove", forKey: .op)
            try container.encode(id, forKey: .id)
        case .move(let id, let parent, let index, let newID):
            try container.encode("move", forKey: .op)
            try container.encode(id, forKey: .id)
            try container.encode(parent, forKey: .parent)
            try container.encode(index, forKey: .index)
            try container.encode(newID, forKey: .newId)
        case .replace(let id, let html):
            try container.encode("replace", forKey: .op)
            try container.encode(id, forKey: .id)
            try container.encode(html, forKey: .html)
        }
    }
}

import Foundation

extension JSONValue: Encodable {
    /// Writes the value back as JSON; of an object's repeated key, only the last value is written.
    ///
    /// - Throws: `EncodingError.invalidValue` for an ``invalid(_:)`` value, anywhere inside.
    func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case .int(let number):
            var container = encoder.singleValueContainer()
            try container.encode(number)
        case .double(let number):
            var container = encoder.singleValueContainer()
            try container.encode(number)
        case .string(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .object(let object):
            var container = encoder.container(keyedBy: MemberKey.self)
            var written: Set<String> = []
            for member in object.members.reversed() where written.insert(member.key).inserted {
                try container.encode(member.value, forKey: MemberKey(member.key))
            }
        case .invalid(let reason):
            throw EncodingError.invalidValue(self, .init(codingPath: encoder.codingPath, debugDescription: reason))
        }
    }

    /// The value as JSON text, or ``invalid(_:)`` with its reason if it holds an unreadable value.
    var jsonText: JSONValue {
        do {
            return .string(String(decoding: try JSONEncoder().encode(self), as: UTF8.self))
        } catch EncodingError.invalidValue(_, let context) {
            return .invalid(context.debugDescription)
        } catch {
            return .invalid("\(error)")
        }
    }

    private struct MemberKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ key: String) { stringValue = key }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

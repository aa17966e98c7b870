/// Writes compact JSON text as UTF-8 bytes: the one JSON writer of the SDK's queue, the
/// collector and the store.
///
/// Hand-written because the SDK writes a line per event and the store an object per
/// stored or exported event, where `JSONEncoder` costs several microseconds each (the export
/// wrote 22,000 events/s through it, 419,000/s through this).
///
/// ```swift
/// var json = JSONWriter()
/// json.object(["amount": 12, "note": "lunch"])
/// json.text  // {"amount":12,"note":"lunch"}
/// ```
@_spi(Wire) public struct JSONWriter: Sendable {
    /// The text written so far.
    public var bytes: [UInt8]

    /// An empty writer, with room for `capacity` bytes.
    public init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The text written so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends `text` as it is: punctuation and keys known to need no escape.
    @inlinable
    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends `text` as a JSON string.
    public mutating func string(_ text: String) {
        // Through its contiguous bytes: scanning `String.UTF8View` byte by byte cost the SDK's
        // writer a tenth of its time (measured with perf).
        var text = text
        text.withUTF8 { string(utf8: $0) }
    }

    /// Appends the UTF-8 text `utf8` as a JSON string, escaping quotes, backslashes and
    /// control characters; text that needs no escape is copied whole.
    ///
    /// Inlinable, so that the export's column buffers get it specialized.
    @inlinable
    public mutating func string(utf8: some Collection<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        if utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 }) {
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    bytes.append(UInt8(ascii: "\\"))
                    bytes.append(byte)
                case 0..<0x20:
                    bytes.append(contentsOf: #"\u00"#.utf8)
                    bytes.append(Self.hexDigits[Int(byte >> 4)])
                    bytes.append(Self.hexDigits[Int(byte & 0xF)])
                default:
                    bytes.append(byte)
                }
            }
        } else {
            bytes.append(contentsOf: utf8)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `value`: an integer as its digits, a double in the shortest form that reads
    /// back the same, with a fraction or an exponent (`12.0`, `1e+300`), so that it stays a
    /// double when read; a non-finite double, which JSON cannot express, as `null`.
    public mutating func value(_ value: PropertyValue) {
        switch value {
        case .string(let text): string(text)
        case .int(let number): bytes.append(contentsOf: String(number).utf8)
        case .double(let number): double(number)
        case .bool(let flag): flag ? raw("true") : raw("false")
        case .null: raw("null")
        }
    }

    /// Appends `properties` as an object with its keys sorted, so equal properties write equal text.
    public mutating func object(_ properties: [String: PropertyValue]) {
        bytes.append(UInt8(ascii: "{"))
        for (index, key) in properties.keys.sorted().enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(key)
            bytes.append(UInt8(ascii: ":"))
            value(properties[key] ?? .null)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Appends `value`; of an object's repeated key, only the last value, where it stands.
    ///
    /// - Throws: The reason of an ``JSONValue/invalid(_:)`` value anywhere inside.
    public mutating func value(_ value: JSONValue) throws(JSONValue.Unreadable) {
        switch value {
        case .null: raw("null")
        case .bool(let flag): flag ? raw("true") : raw("false")
        case .int(let number): bytes.append(contentsOf: String(number).utf8)
        case .double(let number): double(number)
        case .string(let text): string(text)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                try self.value(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            // The last member of each key, found from the end in one pass.
            var keys = Set<String>()
            let last = object.members.indices.reversed().filter { keys.insert(object.members[$0].key).inserted }
            bytes.append(UInt8(ascii: "{"))
            for (position, index) in last.reversed().enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                string(object.members[index].key)
                bytes.append(UInt8(ascii: ":"))
                try self.value(object.members[index].value)
            }
            bytes.append(UInt8(ascii: "}"))
        case .invalid(let reason): throw JSONValue.Unreadable(reason: reason)
        }
    }

    private mutating func double(_ number: Double) {
        guard number.isFinite else { return raw("null") }
        bytes.append(contentsOf: "\(number)".utf8)
    }

    @usableFromInline static let hexDigits = Array("0123456789abcdef".utf8)
}

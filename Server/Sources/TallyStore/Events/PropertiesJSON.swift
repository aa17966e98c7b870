/// Writes event properties as the compact JSON object stored in `event.properties`.
///
/// Hand-written because ingest encodes one object per event and `JSONEncoder` costs
/// several microseconds each on Linux. Keys are sorted so equal properties store equal
/// text. Non-finite numbers, which JSON cannot express, are written as `null`.
enum PropertiesJSON {
    /// The JSON text of `properties`.
    static func encode(_ properties: [String: PropertyValue]) -> String {
        if properties.isEmpty { return "{}" }
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        for (index, key) in properties.keys.sorted().enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            appendString(key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            switch properties[key]! {
            case .string(let value): appendString(value, to: &bytes)
            case .number(let value) where value.isFinite:
                bytes.append(contentsOf: text(of: value).utf8)
            case .number, .null: bytes.append(contentsOf: "null".utf8)
            case .bool(let value): bytes.append(contentsOf: (value ? "true" : "false").utf8)
            }
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The JSON text of a finite number: an integer below 2^53 in magnitude without a
    /// fraction, any other number in Swift's shortest form that reads back the same.
    static func text(of number: Double) -> String {
        number == number.rounded() && abs(number) < 9_007_199_254_740_992 ? String(Int64(number)) : String(number)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func appendString(_ string: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case 0..<0x20:
                bytes.append(contentsOf: "\\u00".utf8)
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0xf)])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

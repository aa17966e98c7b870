import Foundation

/// Lossless conversions between parameter or result types, for values that are not of the
/// type asked for.
enum ValueConversion {
    /// `value` as a `T`: a string through `LosslessStringConvertible` or as JSON (or as a
    /// JSON string, for URLs and string enums), an `Encodable` value through JSON; `nil`
    /// when none of these gives a `T`.
    static func convert<T>(_ value: any Sendable, to type: T.Type) -> T? {
        if let value = value as? T { return value }
        if let string = value as? String {
            if let lossless = T.self as? any LosslessStringConvertible.Type {
                return lossless.init(string) as? T
            }
            guard let decodable = T.self as? any Decodable.Type else { return nil }
            let asJSON = Data(string.utf8)  // `[1, 2]`, `{"title": "Walden"}`
            let asJSONString = try? JSONEncoder().encode(string)  // `"https://…"`: URLs, string enums
            for json in [asJSON, asJSONString].compactMap(\.self) {
                if let value = (try? JSONDecoder().decode(decodable, from: json)) as? T { return value }
            }
            return nil
        }
        guard let decodable = T.self as? any Decodable.Type, let encodable = value as? any Encodable,
            let json = try? JSONEncoder().encode(encodable)
        else { return nil }
        return (try? JSONDecoder().decode(decodable, from: json)) as? T
    }
}

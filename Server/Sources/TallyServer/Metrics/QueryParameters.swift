/// A read request's query parameters, read strictly from its raw query: each value
/// percent-decoded, required to be UTF-8 and at most ``maximumBytes`` long, so that a
/// parameter is either the text the client meant or a 400.
///
/// Hummingbird's `queryParameters` turns bytes that are not UTF-8 into U+FFFD and keeps a
/// value with a broken `%` escape as it came: a funnel step or a filter read that way would
/// quietly name something else. `+` stays a `+`, as there (percent-encode a space as `%20`).
struct QueryParameters {
    /// The longest value a parameter may have, in bytes once decoded: no date, zone, filter
    /// or list of funnel steps needs more.
    static let maximumBytes = 4_096

    /// The raw `name=value` pairs, in order.
    private let pairs: [(name: Substring, value: Substring)]

    /// The parameters of `query`, the part of a URI after `?` as it came (`nil`: none).
    init(_ query: String?) {
        pairs = (query ?? "").split(separator: "&").map { pair in
            guard let equals = pair.firstIndex(of: "=") else { return (pair, "") }
            return (pair[..<equals], pair[pair.index(after: equals)...])
        }
    }

    /// The value of the first parameter named `name`, decoded; `nil` when there is none.
    ///
    /// - Throws: A 400 naming `name` when the value is longer than ``maximumBytes`` bytes,
    ///   has a `%` not followed by two hexadecimal digits, or is not UTF-8 once decoded.
    func get(_ name: String) throws(APIError) -> String? {
        guard let raw = pairs.first(where: { $0.name == name })?.value else { return nil }
        return try Self.decoded(raw, name: name)
    }

    /// The values of the parameters `names`, in order.
    ///
    /// - Throws: A 400 naming them all if one is missing, or as ``get(_:)`` does.
    func required(_ names: [String]) throws(APIError) -> [String] {
        var values: [String] = []
        for name in names {
            if let value = try get(name) { values.append(value) }
        }
        guard values.count == names.count else {
            throw .badRequest("missing " + names.map { "\($0)=" }.joined(separator: ", "))
        }
        return values
    }

    /// `raw`, a value as it came in a URI (a parameter's, or a path segment's), decoded.
    ///
    /// - Throws: A 400 naming `name` when the value is longer than ``maximumBytes`` bytes,
    ///   has a `%` not followed by two hexadecimal digits, or is not UTF-8 once decoded.
    static func decoded(_ raw: Substring, name: String) throws(APIError) -> String {
        // Each decoded byte takes one to three raw bytes: a raw value this long cannot fit.
        guard raw.utf8.count <= 3 * maximumBytes, let bytes = percentDecoded(raw.utf8) else {
            throw raw.utf8.count > 3 * maximumBytes
                ? tooLong(name) : .badRequest("\(name) has a % that is not followed by two hexadecimal digits")
        }
        guard bytes.count <= maximumBytes else { throw tooLong(name) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .badRequest("\(name) is not UTF-8 once percent-decoded")
        }
        return text
    }

    private static func tooLong(_ name: String) -> APIError {
        .badRequest("\(name) is longer than \(maximumBytes) bytes")
    }

    /// `raw` with each `%XX` replaced by the byte it encodes; `nil` if a `%` is not followed
    /// by two hexadecimal digits.
    private static func percentDecoded(_ raw: Substring.UTF8View) -> [UInt8]? {
        func hexadecimal(_ byte: UInt8?) -> UInt8? {
            switch byte {
            case let digit? where (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit): digit - UInt8(ascii: "0")
            case let letter? where (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(letter | 0x20): (letter | 0x20) - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var iterator = raw.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = hexadecimal(iterator.next()), let low = hexadecimal(iterator.next()) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }
}

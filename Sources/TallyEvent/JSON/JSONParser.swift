/// A strict, fast JSON parser for request bodies (RFC 8259).
///
/// It rejects what a collector must not accept: invalid UTF-8 (in strings and anywhere
/// else), trailing garbage, lone surrogates in `\u` escapes. Errors carry the byte offset.
///
/// A value that is well delimited but cannot be used — a number outside `Double`'s range or
/// outside JSON's grammar (`1.`, `.5`, `+1`, `01`), or a container nested deeper than
/// ``maximumDepth`` — parses as ``JSONValue/invalid(_:)``, so that it invalidates only the
/// event holding it, not the batch around it. Nesting past the limit is checked without
/// recursion, so no body can exhaust the stack.
@_spi(Wire) public struct JSONParser {
    /// How deeply arrays and objects may nest and still be read; a valid ingest body needs 4.
    public static let maximumDepth = 32

    /// Why a body is not JSON.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        /// What is wrong.
        public let message: String
        /// The byte where it was found.
        public let offset: Int

        public var description: String { "\(message) at byte \(offset)" }
    }

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses `bytes` as one JSON value with nothing but whitespace around it.
    public static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes)
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.failure("unexpected data after the JSON value") }
        return value
    }

    // MARK: Values

    private mutating func value() throws(Failure) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw failure("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
        default: throw failure("unexpected character")
        }
    }

    /// The value at `index`, an array or object that would nest deeper than ``maximumDepth``:
    /// checks its grammar with a stack of closing brackets instead of recursion, and skips it.
    private mutating func tooDeep() throws(Failure) -> JSONValue {
        var closers: [UInt8] = []
        while true {
            // A value starts here.
            skipWhitespace()
            if peek(UInt8(ascii: "{")) || peek(UInt8(ascii: "[")) {
                let closer = bytes[index] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                closers.append(closer)
                index += 1
                skipWhitespace()
                if peek(closer) {
                    index += 1
                    closers.removeLast()
                } else {
                    if closer == UInt8(ascii: "}") { try memberKey() }
                    continue
                }
            } else {
                _ = try value()  // a scalar: no recursion
            }
            // After a value: a separator or the end of its container.
            while true {
                guard let closer = closers.last else { return .invalid("nesting deeper than \(Self.maximumDepth)") }
                skipWhitespace()
                if peek(UInt8(ascii: ",")) {
                    index += 1
                    if closer == UInt8(ascii: "}") { try memberKey() }
                    break
                }
                try expect(closer)
                closers.removeLast()
            }
        }
    }

    /// Reads `"key":` before a member's value.
    private mutating func memberKey() throws(Failure) {
        skipWhitespace()
        guard peek(UInt8(ascii: "\"")) else { throw failure("expected a string key") }
        _ = try string()
        skipWhitespace()
        try expect(UInt8(ascii: ":"))
    }

    private mutating func object() throws(Failure) -> JSONValue {
        guard depth < Self.maximumDepth else { return try tooDeep() }
        enterContainer()
        var object = JSONObject()
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            index += 1
            depth -= 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { throw failure("expected a string key") }
            let key = try string()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            object.append(key, try value())
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                index += 1
            } else {
                try expect(UInt8(ascii: "}"))
                depth -= 1
                return .object(object)
            }
        }
    }

    private mutating func array() throws(Failure) -> JSONValue {
        guard depth < Self.maximumDepth else { return try tooDeep() }
        enterContainer()
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            elements.append(try value())
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                index += 1
            } else {
                try expect(UInt8(ascii: "]"))
                depth -= 1
                return .array(elements)
            }
        }
    }

    private mutating func enterContainer() {
        depth += 1
        index += 1
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count,
            (0..<count).allSatisfy({ bytes[index + $0] == word.utf8Start[$0] })
        else { throw failure("invalid literal") }
        index += count
    }

    /// Reads a number: the longest run of characters that may appear in one, so that a
    /// malformed or out-of-range number is one ``JSONValue/invalid(_:)`` value.
    private mutating func number() -> JSONValue {
        let start = index
        while index < bytes.count, Self.isNumberCharacter(bytes[index]) { index += 1 }
        let text = bytes[start..<index]
        guard let isInteger = Self.grammar(of: text) else {
            return .invalid("'\(String(decoding: text.prefix(40), as: UTF8.self))' is not a JSON number")
        }
        if let value = Self.shortNumber(text) { return value }
        let string = String(decoding: text, as: UTF8.self)
        if isInteger, let integer = Int(string) { return .int(integer) }
        guard let double = Double(string), double.isFinite else {
            return .invalid("number out of range")
        }
        return .double(double)
    }

    private static func isNumberCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
            UInt8(ascii: "e"), UInt8(ascii: "E"):
            true
        default: false
        }
    }

    /// Whether `text` follows JSON's number grammar (RFC 8259 section 6): `true` for an
    /// integer, `false` for a number with a fraction or exponent, `nil` for no number.
    private static func grammar(of text: ArraySlice<UInt8>) -> Bool? {
        var rest = text[...]
        func digits() -> Int {
            let count = rest.prefix(while: { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }).count
            rest.removeFirst(count)
            return count
        }
        if rest.first == UInt8(ascii: "-") { rest.removeFirst() }
        let leadingZero = rest.first == UInt8(ascii: "0")
        let integerDigits = digits()
        guard integerDigits > 0, !leadingZero || integerDigits == 1 else { return nil }
        var isInteger = true
        if rest.first == UInt8(ascii: ".") {
            rest.removeFirst()
            guard digits() > 0 else { return nil }
            isInteger = false
        }
        if rest.first == UInt8(ascii: "e") || rest.first == UInt8(ascii: "E") {
            rest.removeFirst()
            if rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-") { rest.removeFirst() }
            guard digits() > 0 else { return nil }
            isInteger = false
        }
        return rest.isEmpty ? isInteger : nil
    }

    /// The value of a number of at most 15 digits without exponent (most numbers in event
    /// properties), computed exactly, or `nil` for any other number.
    ///
    /// The digits fit a `Double` exactly, and so does 10^k for the k ≤ 15 fraction digits,
    /// so one correctly rounded division gives the same `Double` as parsing the text.
    private static func shortNumber(_ text: ArraySlice<UInt8>) -> JSONValue? {
        var digits: Int64 = 0
        var count = 0
        var fractionDigits = 0
        var inFraction = false
        for byte in text.drop(while: { $0 == UInt8(ascii: "-") }) {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                // Stop before a 16th digit: 15 digits always fit, so nothing here can overflow.
                guard count < 15 else { return nil }
                digits = digits * 10 + Int64(byte - UInt8(ascii: "0"))
                count += 1
                if inFraction { fractionDigits += 1 }
            case UInt8(ascii: "."):
                inFraction = true
            default:
                return nil
            }
        }
        let negative = text.first == UInt8(ascii: "-")
        if !inFraction { return .int(Int(negative ? -digits : digits)) }
        let magnitude = Double(digits) / powersOfTen[fractionDigits]
        return .double(negative ? -magnitude : magnitude)
    }

    /// 10^0 through 10^15, each exact.
    private static let powersOfTen: [Double] = (0...15).map { exponent in (0..<exponent).reduce(1) { power, _ in power * 10 } }

    // MARK: Strings

    /// Reads a string. The common string, ASCII without escapes, is made straight from the
    /// body's bytes; the others are gathered and validated as UTF-8.
    private mutating func string() throws(Failure) -> String {
        index += 1  // opening quote
        var escaped: [UInt8]?
        var runStart = index
        var isASCII = true
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let run = bytes[runStart..<index]
                index += 1
                if escaped == nil, isASCII { return String(decoding: run, as: UTF8.self) }
                guard let string = Self.validUTF8((escaped ?? []) + run) else { throw failure("invalid UTF-8 in a string") }
                return string
            case UInt8(ascii: "\\"):
                escaped = (escaped ?? []) + bytes[runStart..<index]
                index += 1
                try escape(into: &escaped!)
                runStart = index
            case 0..<0x20:
                throw failure("unescaped control character in a string")
            case 0x80...:
                isASCII = false
                index += 1
            default:
                index += 1
            }
        }
        throw failure("unterminated string")
    }

    private mutating func escape(into utf8: inout [UInt8]) throws(Failure) {
        guard index < bytes.count else { throw failure("unterminated escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar) {
                guard peek(UInt8(ascii: "\\")), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                    throw failure("lone surrogate in a \\u escape")
                }
                index += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw failure("lone surrogate in a \\u escape") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw failure("lone surrogate in a \\u escape") }
            utf8.append(contentsOf: String(Character(unicode)).utf8)
        default:
            throw failure("invalid escape")
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("invalid \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    // MARK: Helpers

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func peek(_ byte: UInt8) -> Bool {
        index < bytes.count && bytes[index] == byte
    }

    private mutating func expect(_ byte: UInt8) throws(Failure) {
        guard peek(byte) else {
            throw failure(index < bytes.count ? "expected '\(Character(Unicode.Scalar(byte)))'" : "unexpected end of input")
        }
        index += 1
    }

    private func failure(_ message: String) -> Failure {
        Failure(message: message, offset: index)
    }

    /// The string `utf8` spells, or `nil` if it is not valid UTF-8.
    private static func validUTF8(_ utf8: [UInt8]) -> String? {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) { return String(validating: utf8, as: UTF8.self) }
        // Before `String(validating:as:)`: decoding replaces each invalid sequence with
        // U+FFFD, so valid UTF-8 is exactly what decodes back to the same bytes.
        let string = String(decoding: utf8, as: UTF8.self)
        return string.utf8.elementsEqual(utf8) ? string : nil
    }
}

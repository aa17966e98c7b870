import SeededRandom
@_spi(Wire) import TallyEvent
import Testing

@testable import TallyEvent

@Suite struct JSONParserTests {
    private func parse(_ text: String) throws -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    /// Short decimals take an exact shortcut; it must agree with the standard parse, bit for bit.
    @Test func numbersParseAsTheStandardLibraryDoes() throws {
        var random = SplitMix64(seed: 7)
        for _ in 0..<20_000 {
            let integerDigits = Int.random(in: 1...9, using: &random)
            let fractionDigits = Int.random(in: 0...9, using: &random)
            var text = Bool.random(using: &random) ? "-" : ""
            text += String(Int.random(in: 1...9, using: &random))
            text += (1..<integerDigits).map { _ in String(Int.random(in: 0...9, using: &random)) }.joined()
            if fractionDigits > 0 {
                text += "." + (0..<fractionDigits).map { _ in String(Int.random(in: 0...9, using: &random)) }.joined()
            }
            let expected: JSONValue = fractionDigits == 0 ? .int(Int(text)!) : .double(Double(text)!)
            let parsed = try parse(text)
            #expect(parsed == expected, "\(text)")
            if case .double(let value) = parsed, case .double(let standard) = expected {
                #expect(value.bitPattern == standard.bitPattern, "\(text)")
            }
        }
        #expect(try parse("0.1") == .double(0.1))
        #expect(try parse("-0.0") == .double(-0.0))
        #expect(try parse("1234567890123456789") == .int(1_234_567_890_123_456_789))
        #expect(try parse("1.5e3") == .double(1500))
    }

    @Test func stringsKeepTheirTextAndRejectInvalidUTF8() throws {
        #expect(try parse(#""plain""#) == .string("plain"))
        #expect(try parse(#""早饭 café""#) == .string("早饭 café"))
        #expect(try parse(#""a\"b\\c\u00e9\ud83d\ude00""#) == .string("a\"b\\cé😀"))
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse([0x22, 0x61, 0x5C, 0x6E, 0xFF, 0x22]) }
    }

    @Test func aRepeatedKeyReadsAsItsLastValue() throws {
        guard case .object(let object) = try parse(#"{"name": "first", "user_id": "u", "name": "last"}"#) else {
            Issue.record("not an object")
            return
        }
        #expect(object["name"] == .string("last"))
        #expect(object["user_id"] == .string("u"))
        #expect(object["missing"] == nil)
    }
}

@Suite struct JSONParserLimitTests {
    private func parse(_ text: String) throws -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    /// Numbers of any length, sign and exponent parse, or become an `invalid` value; none traps.
    @Test(arguments: [
        ("123456789012345678901", JSONValue.double(Double("123456789012345678901")!)),
        ("-9223372036854775808", .int(Int.min)),
        ("9223372036854775807", .int(Int.max)),
        ("9223372036854775808", .double(9_223_372_036_854_775_808)),
        ("999999999999999", .int(999_999_999_999_999)),
        ("9999999999999999", .int(9_999_999_999_999_999)),
        ("-0", .int(0)),
        ("1e-400", .double(0)),
        ("0.0000000000000000000001", .double(1e-22)),
    ])
    func numbersAtTheLimitsParse(text: String, expected: JSONValue) throws {
        #expect(try parse(text) == expected)
        #expect(try parse("[\(text)]") == .array([expected]))
    }

    @Test(arguments: ["1e400", "-1e400", "1.", ".5", "+1", "01", "-", "1e", "1e+", "1.2.3", "--1", "1-2", "0e5e"])
    func malformedOrOutOfRangeNumbersAreInvalidValues(text: String) throws {
        guard case .object(let object) = try parse(#"{"n": \#(text), "after": true}"#),
            case .invalid = object["n"]
        else {
            Issue.record("\(text) did not parse as an invalid value")
            return
        }
        #expect(object["after"] == .bool(true))
    }

    @Test func aNumberOfAMillionDigitsIsReadWithoutTrapping() throws {
        let digits = String(repeating: "9", count: 1_000_000)
        #expect(try parse(digits) == .invalid("number out of range"))
        #expect(try parse("0." + digits) == .double(1))
    }

    /// Nesting past the limit is checked without recursion: a million brackets cannot
    /// exhaust the stack, and what lies past the limit is one `invalid` value.
    @Test func nestingPastTheLimitIsAnInvalidValueAndNeverRecurses() throws {
        let depth = 1_000_000
        let deep = String(repeating: #"{"a":["#, count: depth) + "1" + String(repeating: "]}", count: depth)
        let value = try parse(#"{"deep": \#(deep), "after": 2}"#)
        guard case .object(let object) = value else {
            Issue.record("not an object")
            return
        }
        #expect(object["after"] == .int(2))
        /// How many containers hold the first `invalid` value on the path of first members.
        func depthOfInvalid(_ value: JSONValue) -> Int? {
            switch value {
            case .invalid(let reason): reason == "nesting deeper than \(JSONParser.maximumDepth)" ? 0 : nil
            case .array(let elements): elements.first.flatMap(depthOfInvalid).map { $0 + 1 }
            case .object(let object): object.members.first.flatMap { depthOfInvalid($0.value) }.map { $0 + 1 }
            default: nil
            }
        }
        #expect(depthOfInvalid(value) == JSONParser.maximumDepth)

        let atTheLimit = String(repeating: "[", count: JSONParser.maximumDepth) + String(repeating: "]", count: JSONParser.maximumDepth)
        #expect(throws: Never.self) { try parse(atTheLimit) }
        if case .invalid = try parse(atTheLimit) { Issue.record("a value at the limit must be read") }
    }

    @Test(arguments: [
        Sample("100,000 unclosed [", String(repeating: "[", count: 100_000)),
        Sample("a trailing comma past the limit", String(repeating: "[", count: 100) + "1,]" + String(repeating: "]", count: 99)),
        Sample("an unclosed object past the limit", String(repeating: #"{"a":"#, count: 100) + "1" + String(repeating: "}", count: 99)),
        Sample("keyless objects past the limit", String(repeating: "{", count: 100) + String(repeating: "}", count: 100)),
        Sample("mismatched brackets past the limit", String(repeating: "[", count: 100) + "]" + String(repeating: "}", count: 99)),
    ])
    func malformedDeepNestingIsStillABadBody(sample: Sample) {
        #expect(throws: JSONParser.Failure.self) { try parse(sample.text) }
    }
}

/// A test input with a short name, so that long inputs do not flood the test log.
struct Sample: Sendable, CustomTestStringConvertible {
    let name: String
    let text: String

    init(_ name: String, _ text: String) {
        self.name = name
        self.text = text
    }

    /// A short input, named by itself.
    init(_ text: String) {
        self.init(text, text)
    }

    var testDescription: String { name }
}

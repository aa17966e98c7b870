import SeededRandom
import Testing
@testable import TallyServer

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

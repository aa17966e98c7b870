import Foundation
@_spi(Wire) import TallyEvent
import Testing

@testable import TallyEvent

@Suite struct JSONWriterTests {
    /// Every string, escapes and all, reads back as itself through Foundation's reader.
    @Test func stringsReadBackAsThemselves() throws {
        let texts = ["", "plain", "quote \" backslash \\", "controls \u{0}\u{1}\u{1F}\n\r\t", "emoji 🧾 é 漢字", "\u{7F}\u{2028}"]
        for text in texts {
            var json = JSONWriter()
            json.string(text)
            #expect(try JSONSerialization.jsonObject(with: Data(json.bytes), options: .fragmentsAllowed) as? String == text)
        }
    }

    /// Integers and doubles stay apart: each is read back by this module's parser as the
    /// case it was written as, with the same value.
    @Test func numbersKeepTheirKind() throws {
        let values: [PropertyValue] = [
            0, -1, .int(.max), .int(.min), 12.0, -0.5, 1e-7, 1e300, .double(.leastNonzeroMagnitude), .double(.greatestFiniteMagnitude),
            .double(-0.0), .double(0.1 + 0.2),
        ]
        var json = JSONWriter()
        json.object(Dictionary(uniqueKeysWithValues: values.enumerated().map { ("k\($0.offset)", $0.element) }))
        let read = try #require(PropertyValue.properties(json: json.bytes))
        for (index, value) in values.enumerated() {
            #expect(read["k\(index)"] == value, "\(value)")
        }
    }

    @Test func keysAreSortedAndNonFiniteNumbersAreNull() {
        var json = JSONWriter()
        json.object(["b": .double(.infinity), "a": .double(.nan), "c": true, "d": nil])
        #expect(json.text == #"{"a":null,"b":null,"c":true,"d":null}"#)
    }

    /// A parsed value written back: compact, in document order, of a repeated key only the
    /// last value; an unreadable value anywhere is an error.
    @Test func parsedValuesWriteBack() throws {
        var json = JSONWriter()
        try json.value(JSONParser.parse(Array(#" {"a": [1, 2.5, "x", null, true], "b": {"c": 1, "c": 2}, "a": 0} "#.utf8)))
        #expect(json.text == #"{"b":{"c":2},"a":0}"#)
        var invalid = JSONWriter()
        #expect(throws: JSONValue.Unreadable.self) { try invalid.value(JSONParser.parse(Array(#"[1, 1e400]"#.utf8))) }
    }

    /// An object of many members with one repeated key writes in linear time (a quadratic
    /// scan of 200,000 members would not finish).
    @Test func manyMembersAreWrittenOnce() throws {
        let members = (0..<200_000).map { (key: "k\($0 % 100_000)", value: JSONValue.int($0)) }
        var json = JSONWriter()
        try json.value(.object(JSONObject(members)))
        let read = try #require(PropertyValue.properties(json: json.bytes))
        #expect(read.count == 100_000)
        #expect(read["k0"] == .int(100_000))
    }
}

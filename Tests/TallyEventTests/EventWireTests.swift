import Foundation
import SeededRandom
@_spi(Wire) import TallyEvent
import Testing

@testable import TallyEvent

@Suite struct EventWireTests {
    @Test func timestampsAreISO8601WithMillisecondsAndTheOffset() {
        let date = Date(timeIntervalSince1970: 1_795_313_730.25)  // 2026-11-22T02:15:30.25Z
        #expect(date.formatted(.wire(timeZone: TimeZone(secondsFromGMT: 8 * 3600)!)) == "2026-11-22T10:15:30.250+08:00")
        #expect(date.formatted(.wire(timeZone: TimeZone(identifier: "UTC")!)) == "2026-11-22T02:15:30.250Z")
        #expect(Date(wireTimestamp: "2026-11-22T10:15:30.250+08:00") == date)
        #expect(Date(wireTimestamp: "2026-11-22T10:15:30.250123456+0800") == date)
        #expect(Date(wireTimestamp: "2026-11-22T02:15:30.25z") == date)
    }

    @Test(arguments: [
        "2026-11-22T10:15:30", "2026-11-22 10:15:30Z", "2026-02-29T10:15:30Z", "2026-11-22T24:00:00Z", "2026-11-22T10:15:30.Z",
        "2026-11-22T10:15:30.1234567890Z", "2026-11-22T10:15:30+8:00", "2026-11-22T10:15:30Z ", "",
    ])
    func otherTimestampsAreRefused(text: String) {
        #expect(Date(wireTimestamp: text) == nil)
    }

    /// Over random instants written in random offsets, as the SDK writes them: each reads back
    /// to the millisecond Foundation's parser reads, from a substring too, and every shorter prefix of its text, and the
    /// text with any one digit made a letter, is refused.
    @Test func writtenTimestampsReadBackAndDamagedOnesAreRefused() throws {
        var random = SplitMix64(seed: 7)
        for _ in 0..<2_000 {
            let milliseconds = Int64.random(in: -2_000_000_000_000...5_000_000_000_000, using: &random)
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let offset = Int.random(in: -14 * 4...14 * 4, using: &random) * 900
            let text = date.formatted(.wire(timeZone: try #require(TimeZone(secondsFromGMT: offset))))
            let parsed = try #require(Date(wireTimestamp: text), "\(text)")
            let foundations = try Date.ISO8601FormatStyle.wire(timeZone: try #require(TimeZone(secondsFromGMT: offset))).parse(text)
            #expect((parsed.timeIntervalSince1970 * 1000).rounded() == (foundations.timeIntervalSince1970 * 1000).rounded(), "\(text)")
            #expect(Date(wireTimestamp: " \(text)".dropFirst()) == parsed)
            for length in 0..<text.utf8.count {
                #expect(Date(wireTimestamp: String(decoding: text.utf8.prefix(length), as: UTF8.self)) == nil, "\(text) to \(length)")
            }
            var damaged = Array(text.utf8)
            let digits = damaged.indices.filter { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(damaged[$0]) }
            damaged[digits.randomElement(using: &random)!] = UInt8(ascii: "x")
            #expect(Date(wireTimestamp: String(decoding: damaged, as: UTF8.self)) == nil, "\(text)")
        }
    }

    /// What the SDK writes, the collector reads back as the same event: texts that need
    /// escapes, integers and doubles apart, a non-finite number as null, `debug`.
    @Test func anEventReadsBackAsWritten() throws {
        let text = "quote \" backslash \\ newline \n tab \t bell \u{07} emoji 🧾 é"
        let event = Event(
            id: UUID(), name: "bill_created", timestamp: Date(timeIntervalSince1970: 1_795_313_730.25), userID: "u\"1",
            sessionID: "s-1", appVersion: "1", platform: "iOS",
            properties: ["text": .string(text), "whole": 12, "double": 12.0, "big": .int(.max), "small": 1e-7, "nan": .double(.nan)],
            isDebug: true)
        let json = event.wireJSON(timestampStyle: .wire())
        let read = try Event(wire: JSONParser.parse(json))
        var expected = event
        expected.properties["nan"] = .null
        #expect(read == expected)
        #expect(String(decoding: json, as: UTF8.self).contains(#""double":12.0,"#))
        #expect(try JSONSerialization.jsonObject(with: Data(json)) is [String: Any])
    }

    @Test func aProductionEventCarriesNoDebugField() throws {
        let event = Event(id: UUID(), name: "e", timestamp: Date(), userID: "u")
        let text = String(decoding: event.wireJSON(timestampStyle: .wire()), as: UTF8.self)
        #expect(!text.contains("debug"))
        #expect(!text.contains("session_id"))
        #expect(try Event(wire: JSONParser.parse(Array(text.utf8))).isDebug == false)
    }

    @Test(arguments: [
        (#"{"id":"x","name":"e","timestamp":"2026-11-22T10:15:30Z","user_id":"u"}"#, RejectionCode.invalidID),
        (#"{"id":"\#(UUID())","name":"","timestamp":"2026-11-22T10:15:30Z","user_id":"u"}"#, .invalidName),
        (#"{"id":"\#(UUID())","name":"a\u0000","timestamp":"2026-11-22T10:15:30Z","user_id":"u"}"#, .invalidName),
        (#"{"id":"\#(UUID())","name":"\#(String(repeating: "é", count: 101))","timestamp":"2026-11-22T10:15:30Z","user_id":"u"}"#, .invalidName),
        (#"{"id":"\#(UUID())","name":"e","timestamp":"yesterday","user_id":"u"}"#, .invalidTimestamp),
        (#"{"id":"\#(UUID())","name":"e","timestamp":"2026-11-22T10:15:30Z","user_id":""}"#, .invalidUserID),
        (#"{"id":"\#(UUID())","name":"e","timestamp":"2026-11-22T10:15:30Z","user_id":"u","platform":7}"#, .invalidField),
        (#"{"id":"\#(UUID())","name":"e","timestamp":"2026-11-22T10:15:30Z","user_id":"u","debug":"yes"}"#, .invalidField),
        (#"{"id":"\#(UUID())","name":"e","timestamp":"2026-11-22T10:15:30Z","user_id":"u","properties":{"a":[1]}}"#, .invalidProperties),
        (#"{"id":"\#(UUID())","name":"e","timestamp":"2026-11-22T10:15:30Z","user_id":"u","properties":{"a":1e400}}"#, .invalidProperties),
        (#"[1]"#, .unreadable),
    ])
    func eachBrokenRuleHasItsCode(json: String, code: RejectionCode) throws {
        #expect(throws: EventRejection.self) { try Event(wire: JSONParser.parse(Array(json.utf8))) }
        do {
            _ = try Event(wire: JSONParser.parse(Array(json.utf8)))
        } catch let rejection as EventRejection {
            #expect(rejection.code == code)
        }
    }

    /// The rule is the same wherever a name is checked: 100 characters, however many bytes.
    @Test func namesAreCountedInCharacters() {
        #expect(Event.isValidName(String(repeating: "é", count: 100)))
        #expect(!Event.isValidName(String(repeating: "é", count: 101)))
        #expect(Event.isValidName(String(repeating: "a", count: 100)))
        #expect(!Event.isValidName(""))
        #expect(!Event.isValidName("a\u{0}b"))
    }
}

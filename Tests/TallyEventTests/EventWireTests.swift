import Foundation
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

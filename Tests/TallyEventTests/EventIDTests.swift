import Foundation
import SeededRandom
import Testing

@testable import TallyEvent

@Suite struct EventIDTests {
    /// Over ids in both cases and ids with one character changed, dropped or added: the
    /// canonical 8-4-4-4-12 form parses to the same UUID as Foundation's parser, and every other
    /// text is rejected (Foundation's `sscanf`-based parser lets some of them through).
    @Test func parsesTheCanonicalFormOnly() {
        var random = SplitMix64(seed: 11)
        let alphabet = Array("0123456789abcdefABCDEF- xg")
        for _ in 0..<20_000 {
            var text = Array(UUID().uuidString)
            if Bool.random(using: &random) { text = Array(String(text).lowercased()) }
            switch Int.random(in: 0..<4, using: &random) {
            case 0: text[Int.random(in: 0..<text.count, using: &random)] = alphabet.randomElement(using: &random)!
            case 1: text.remove(at: Int.random(in: 0..<text.count, using: &random))
            case 2: text.insert(alphabet.randomElement(using: &random)!, at: Int.random(in: 0...text.count, using: &random))
            default: break
            }
            let string = String(text)
            let canonical =
                text.count == 36
                && text.indices.allSatisfy { index in
                    [8, 13, 18, 23].contains(index) ? text[index] == "-" : text[index].isHexDigit
                }
            if canonical {
                #expect(UUID(eventID: string) == UUID(uuidString: string), "\(string)")
                #expect(UUID(eventID: string) != nil, "\(string)")
            } else {
                #expect(UUID(eventID: string) == nil, "\(string)")
            }
        }
    }
}

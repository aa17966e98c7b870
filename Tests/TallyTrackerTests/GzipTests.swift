import Foundation
import SeededRandom
import Testing

@testable import TallyTracker

@Suite("Gzip")
struct GzipTests {
    /// A reproducible byte source (SplitMix64).
    static let inputs: [(String, [UInt8])] = {
        var random = SplitMix64(seed: 42)
        func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &random) } }
        let json = Array(#"{"id":"6f1c","name":"bill_created","properties":{"amount":12.5}},"#.utf8)
        let chunk = bytes(1000)
        return [
            ("empty", []),
            ("one byte", [0x61]),
            ("every byte value", (0...255).map { UInt8($0) }),
            ("a long run", Array(repeating: 0x61, count: 100_000)),
            ("repetitive JSON", Array((0..<2000).map { _ in json }.joined())),
            ("random, past the 32 KiB window", bytes(100_000)),
            // Repeats 32 000 bytes back: matches near the window's far edge.
            ("random with distant repeats", chunk + bytes(31_000) + chunk + bytes(40_000) + chunk),
            ("runs of every match length", (3...300).flatMap { length in Array(repeating: UInt8(length % 251), count: length) + [0xFF] }),
        ]
    }()

    @Test("Output decompresses with the system gzip to the input", arguments: inputs)
    func roundTrip(name: String, input: [UInt8]) throws {
        let compressed = Gzip.compress(Data(input))
        #expect(try gunzip(compressed) == Data(input), "\(name)")
    }

    @Test("Repetitive input shrinks")
    func compresses() {
        let input = Data(String(repeating: #"{"name":"screen_view","properties":{"screen":"Home"}},"#, count: 500).utf8)
        #expect(Gzip.compress(input).count < input.count / 10)
    }

    @Test("CRC-32 matches the standard check value")
    func crc() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
    }
}

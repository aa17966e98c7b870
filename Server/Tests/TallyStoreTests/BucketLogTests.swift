import SeededRandom
import Testing

@testable import TallyStore

/// The bucket log's blob: what is stored reads back, and a damaged blob is an error, never a trap.
@Suite struct BucketLogTests {
    static func randomEntries(_ random: inout SplitMix64, count: Int, distinct: Int) -> [BucketLog.Entry] {
        (0..<count).map { _ in
            BucketLog.Entry(
                user: UInt32.random(in: 0..<UInt32(distinct * 40), using: &random), offset: UInt32.random(in: 0..<900_000, using: &random),
                name: Int64.random(in: 1...Int64(distinct), using: &random), key: Int64.random(in: 0..<Int64(distinct * 3), using: &random),
                screen: Bool.random(using: &random) ? 0 : Int64.random(in: 1...Int64(distinct * 100), using: &random),
                session: Bool.random(using: &random) ? 0 : UInt64.random(in: 1...UInt64(distinct * 20), using: &random) &* 0x9E37_79B9_7F4A_7C15)
        }
    }

    /// Dictionaries of 1, 2 and 4 bytes, merged logs, and the columns a view reads.
    @Test(arguments: [(1, 10), (300, 40), (3_000, 200), (70_000, 20_000)])
    func blobsReadBackWhatWasStored(count: Int, distinct: Int) throws {
        var random = SplitMix64(seed: UInt64(count))
        let entries = Self.randomEntries(&random, count: count, distinct: distinct)
        var log = BucketLog(Array(entries[..<(count / 2)]))
        log.merge(Array(entries[(count / 2)...]))
        #expect(log == BucketLog(entries))
        let bytes = log.encoded
        let decoded = try bytes.withUnsafeBytes { try BucketLog(encoded: $0) }
        #expect(decoded.entries == entries.sorted())
        try bytes.withUnsafeBytes { bytes in
            let view = try BucketLog.View(bytes)
            #expect(view.count == count)
            #expect(view.sections.map(\.name) == Array(Set(entries.map(\.name))).sorted())
        }
    }

    @Test func damagedBlobsThrow() throws {
        var random = SplitMix64(seed: 7)
        let bytes = BucketLog(Self.randomEntries(&random, count: 500, distinct: 30)).encoded
        var rejected = 0
        for round in 0..<2_000 {
            var damaged = bytes
            switch round % 3 {
            case 0: damaged.removeLast(Int.random(in: 1...damaged.count, using: &random))
            case 1:
                for _ in 0..<Int.random(in: 1...8, using: &random) {
                    damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
            default: damaged = (0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            }
            do {
                _ = try damaged.withUnsafeBytes { try BucketLog(encoded: $0) }
            } catch is DamagedRollup {
                rejected += 1
            }
        }
        #expect(rejected > 1_000)
    }
}

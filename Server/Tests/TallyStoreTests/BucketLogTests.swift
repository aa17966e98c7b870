import Foundation
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
        log._checkInvariants()
        log.merge(Array(entries[(count / 2)...]))
        log._checkInvariants()
        #expect(log == BucketLog(entries))
        let bytes = log.encoded
        let decoded = try bytes.withUnsafeBytes { try BucketLog(encoded: $0) }
        decoded._checkInvariants()
        #expect(decoded.entries == entries.sorted())
        try bytes.withUnsafeBytes { bytes in
            let view = try BucketLog.View(bytes)
            #expect(view.count == count)
            #expect(view.sections.map(\.name) == Array(Set(entries.map(\.name))).sorted())
        }
    }

    /// A day's logs regrouped by name (``DayLog``, what funnels read) and by session
    /// (``DaySessions``, what paths read) keep their invariants and hold every event of theirs.
    @Test(arguments: [(1, 2), (40, 5), (2_000, 60)])
    func derivedDayLogsKeepTheirInvariants(perBucket: Int, distinct: Int) throws {
        var random = SplitMix64(seed: UInt64(perBucket))
        let day: Int64 = 20_500
        let buckets = (0..<Bucket.perDay).filter { _ in Int.random(in: 0..<3, using: &random) == 0 }.map { day * Bucket.perDay + $0 }
        var all: [(bucket: Int64, entry: BucketLog.Entry)] = []
        let logs = try buckets.enumerated().map { revision, bucket in
            let entries = Self.randomEntries(&random, count: perBucket, distinct: distinct)
            all += entries.map { (bucket, $0) }
            return (
                bucket: bucket, log: try BucketLog(entries).encoded.withUnsafeBytes { try BucketLogCache.Log(revision: Int64(revision), bytes: $0) }
            )
        }
        for name in Set(all.map(\.entry.name)) {
            let log = try DayLog(name: name, day: day, logs: logs)
            log._checkInvariants()
            #expect(Array(log.users) == Set(all.filter { $0.entry.name == name }.map(\.entry.user)).sorted())
            #expect(log.times.count == all.count { $0.entry.name == name })
        }
        let sessions = try DaySessions(day: day, logs: logs)
        sessions._checkInvariants()
        let expected = Set(all.filter { $0.entry.session != 0 }.map { "\($0.entry.user) \($0.entry.session)" })
        #expect(sessions.users.count == expected.count)
        #expect(sessions.times.count == all.count { $0.entry.session != 0 })
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

    /// Stored logs keep session hashes: the hash of an id never changes from one version to
    /// the next (a session's old and new events would part), and ids apart hash apart. The
    /// two values are MurmurHash64A's, computed by an independent implementation.
    @Test func sessionHashesAreStableAndTellIdsApart() {
        #expect(SessionHash.of(nil) == 0 && SessionHash.of("") == 0)
        #expect(SessionHash.of("s-9203-0") == 0x48b8_5b01_ea87_afb9)
        #expect(SessionHash.of("019B76DA-F53C-72F4-9D60-EE5A41A18B6F") == 0x18fa_5aaf_5f1f_0b95)
        var random = SplitMix64(seed: 11)
        let ids = (0..<100_000).map { "s-\($0 % 20_000)-\($0 / 20_000)" } + (0..<100_000).map { _ in UUID.random(using: &random).uuidString }
        #expect(Set(ids.map(SessionHash.of)).count == ids.count)
        #expect(!ids.contains { SessionHash.of($0) == 0 })
        // Every length up to two words and a tail, so each byte counts.
        let prefixes = (1...23).map { String(repeating: "é", count: $0) } + (1...23).map { String(repeating: "a", count: $0) }
        #expect(Set(prefixes.map(SessionHash.of)).count == prefixes.count)
    }
}

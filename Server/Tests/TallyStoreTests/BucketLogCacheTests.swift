import SeededRandom
import Testing

@testable import TallyStore

/// The log cache: it serves a log only at the revision asked for, and stays within its bytes
/// however many logs pass through it.
@Suite struct BucketLogCacheTests {
    static func log(revision: Int64, events: Int, _ random: inout SplitMix64) throws -> BucketLogCache.Log {
        let bytes = BucketLog(BucketLogTests.randomEntries(&random, count: events, distinct: 20)).encoded
        return try bytes.withUnsafeBytes { try BucketLogCache.Log(revision: revision, bytes: $0) }
    }

    @Test func servesOnlyTheRevisionAskedFor() throws {
        var random = SplitMix64(seed: 1)
        let cache = BucketLogCache()
        let (app, other) = (AppID(rawValue: 1), AppID(rawValue: -1))
        let first = try Self.log(revision: 4, events: 50, &random)
        cache.keep(app: app, [(10, first), (11, try Self.log(revision: 5, events: 50, &random))])
        #expect(cache.logs(app: app, [(10, 4)]).map { $0 === first } == [true])
        #expect(cache.logs(app: app, [(10, 6), (11, 5), (12, 1)]).map { $0 == nil } == [true, false, true])
        #expect(cache.logs(app: other, [(10, 4)]).map { $0 == nil } == [true])
        // A newer revision replaces the log; an older one never does.
        let newer = try Self.log(revision: 7, events: 10, &random)
        cache.keep(app: app, [(10, newer)])
        cache.keep(app: app, [(10, first)])
        #expect(cache.logs(app: app, [(10, 7)]).map { $0 === newer } == [true])
    }

    @Test func fetchesExactlyTheRowsItLacks() throws {
        var random = SplitMix64(seed: 3)
        let rows: [(bucket: Int64, revision: Int64)] = [(1, 1), (2, 1), (5, 1), (6, 1), (9, 1), (12, 1)]
        let (missing, kept) = (BucketLogCache.Log?.none, try Self.log(revision: 1, events: 1, &random))
        #expect(rows.missing([missing, missing, kept, missing, kept, missing]) == [1..<3, 6..<7, 12..<13])
        #expect(rows.missing(Array(repeating: missing, count: 6)) == [1..<13])
        #expect(rows.missing(Array(repeating: kept, count: 6)).isEmpty)
    }

    @Test func staysWithinItsBytesOverManyRounds() throws {
        var random = SplitMix64(seed: 2)
        let cache = BucketLogCache(capacity: 200_000)
        var revision: Int64 = 0
        for round in 0..<2_000 {
            revision += 1
            let bucket = Int64.random(in: 0..<400, using: &random)
            let log = try Self.log(revision: revision, events: Int.random(in: 1...2_000, using: &random), &random)
            cache.keep(app: AppID(rawValue: Int64(round % 3)), [(bucket, log)])
            #expect(cache.size <= cache.capacity)
            // What was just kept is served, unless it alone is past the capacity.
            let served = cache.logs(app: AppID(rawValue: Int64(round % 3)), [(bucket, revision)])[0]
            #expect(served === log || log.size > cache.capacity / 4 * 3)
        }
        #expect(cache.size > 0)
        let empty = BucketLogCache(capacity: 0)
        empty.keep(app: AppID(rawValue: 1), [(1, try Self.log(revision: 1, events: 10, &random))])
        #expect(empty.size == 0)
    }
}

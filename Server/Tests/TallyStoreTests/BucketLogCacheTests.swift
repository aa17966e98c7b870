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

    /// The bucket logs of one day, at buckets from `day`'s first, each with a new revision.
    static func day(_ day: Int64, logs: Int, revision: inout Int64, _ random: inout SplitMix64) throws -> [(
        bucket: Int64, log: BucketLogCache.Log
    )] {
        try (0..<logs).map { index in
            revision += 1
            return (day * Bucket.perDay + Int64(index * 5), try log(revision: revision, events: Int.random(in: 1...400, using: &random), &random))
        }
    }

    @Test func aDayLogHoldsItsNamesEventsByUserInTimeOrder() throws {
        var random = SplitMix64(seed: 4)
        let day: Int64 = 3
        let entries = (0..<6).map { _ in BucketLogTests.randomEntries(&random, count: Int.random(in: 1...400, using: &random), distinct: 20) }
        let logs = try entries.enumerated().map { index, entries in
            let bytes = BucketLog(entries).encoded
            let log = try bytes.withUnsafeBytes { try BucketLogCache.Log(revision: Int64(index + 10), bytes: $0) }
            return (bucket: day * Bucket.perDay + Int64(index * 5), log: log)
        }
        for name in [1, 7, 99] as [Int64] {
            let dayLog = try DayLog(name: name, day: day, logs: logs)
            // Brute force: every entry of the name, as its user, time in the day, key and screen,
            // sorted (events of one millisecond are of one bucket, whose log sorts them so).
            var expected: [[Int64]] = []
            for (index, entries) in entries.enumerated() {
                for entry in entries where entry.name == name {
                    expected.append([Int64(entry.user), Int64(index * 5) * Bucket.milliseconds + Int64(entry.offset), entry.key, entry.screen])
                }
            }
            expected.sort { $0.lexicographicallyPrecedes($1) }
            var read: [[Int64]] = []
            for (index, user) in dayLog.users.enumerated() {
                for event in (index == 0 ? 0 : Int(dayLog.ends[index - 1]))..<Int(dayLog.ends[index]) {
                    let (key, screen) = (dayLog.keys[Int(dayLog.keyIndexes[event])], dayLog.screens[Int(dayLog.screenIndexes[event])])
                    read.append([Int64(user), Int64(dayLog.times[event]), key, screen])
                }
            }
            #expect(read == expected, "name \(name)")
            #expect(read.isEmpty == (name > 20))
            #expect(dayLog.revisions == logs.map(\.log.revision))
        }
    }

    @Test func servesADayLogOnlyAtItsRevisionsWithinItsBytes() throws {
        var random = SplitMix64(seed: 5)
        let cache = BucketLogCache(capacity: 300_000)
        var revision: Int64 = 0
        var days: [Int64: [(bucket: Int64, log: BucketLogCache.Log)]] = [:]
        for round in 0..<600 {
            let (app, day) = (AppID(rawValue: Int64(round % 2)), Int64.random(in: 0..<40, using: &random))
            // A day written again gets new revisions.
            if days[day] == nil || Bool.random(using: &random) {
                days[day] = try Self.day(day, logs: Int.random(in: 1...4, using: &random), revision: &revision, &random)
            }
            let logs = days[day]!
            var made = 0
            let dayLogs = try cache.dayLogs(app: app, names: [2, 5], days: [(day, logs.map(\.log.revision))]) { _ in
                made += 1
                return logs
            }
            #expect(dayLogs.map(\.revisions) == [logs.map(\.log.revision), logs.map(\.log.revision)])
            let again = try cache.dayLogs(app: app, names: [2, 5], days: [(day, logs.map(\.log.revision))]) { _ in
                made += 1
                return logs
            }
            #expect(zip(dayLogs, again).allSatisfy { $0 === $1 } || dayLogs.reduce(0) { $0 + $1.size } > cache.capacity / 4 * 3)
            #expect(made <= 2)
            #expect(cache.size <= cache.capacity)
        }
        #expect(cache.size > 0)
    }

    @Test func staysWithinItsBytesOverManyRounds() throws {
        var random = SplitMix64(seed: 2)
        let cache = BucketLogCache(capacity: 30_000)
        var revision: Int64 = 0
        for round in 0..<2_000 {
            revision += 1
            let bucket = Int64.random(in: 0..<400, using: &random)
            let log = try Self.log(revision: revision, events: Int.random(in: 1...300, using: &random), &random)
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

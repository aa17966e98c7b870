import Foundation
import SeededRandom
import Testing

@testable import TallyStore

/// Users taken out of encoded rollups straight from their bytes give, byte for byte, what
/// encoding the rollup without them gives; a user's events are found in a log's bytes.
@Suite struct UserRemovalTests {
    @Test(arguments: 1...40 as ClosedRange<UInt64>)
    func aLogWithoutTheUserIsTheLogOfTheOtherEvents(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let users = UInt32.random(in: 1...(seed % 4 == 0 ? 3 : 400), using: &random)
        // Enough screens and sessions in some logs for two-byte indexes.
        let (screens, sessions) = (Int64.random(in: 1...(seed % 3 == 0 ? 600 : 20), using: &random), UInt64.random(in: 1...700, using: &random))
        let entries = (0..<Int.random(in: 1...3_000, using: &random)).map { _ in
            BucketLog.Entry(
                user: UInt32.random(in: 0..<users, using: &random), offset: UInt32.random(in: 0..<900_000, using: &random),
                name: Int64.random(in: 1...12, using: &random), key: Int64.random(in: 0...30, using: &random),
                screen: Int64.random(in: 0...screens, using: &random), session: UInt64.random(in: 0...sessions, using: &random))
        }
        let log = BucketLog(entries)
        let user = log.entries.randomElement(using: &random)!.user
        // One user, or several (deleted before the bucket's next fold).
        let removedUsers: Set = seed % 2 == 0 ? [user] : [user, log.entries.randomElement(using: &random)!.user, users + 5]
        let removed = try #require(try log.encoded.withUnsafeBytes { try BucketLog.removing(removedUsers, from: $0) })
        #expect(removed == BucketLog(log.entries.filter { !removedUsers.contains($0.user) }).encoded)
        #expect(try log.encoded.withUnsafeBytes { try BucketLog.removing([users + 1], from: $0) } == nil)
        var filtered = log
        filtered.removeAll(users: removedUsers)
        #expect(filtered.encoded == removed)
        // The user's events are found in the bytes as the log holds them.
        #expect(try log.encoded.withUnsafeBytes { try BucketLog.events(of: user, in: $0) } == log.entries.filter { $0.user == user })
        #expect(try log.encoded.withUnsafeBytes { try BucketLog.events(of: users + 1, in: $0) }.isEmpty)

        var activity = BucketActivity()
        for entry in log.entries {
            activity.names[entry.name, default: [:]][entry.user, default: 0] += 1
            activity.last[entry.user] = BucketActivity.LastEvent(offset: Int64(entry.offset), version: entry.key)
        }
        var without = activity
        without.last[user] = nil
        for (name, counts) in without.names {
            var counts = counts
            counts[user] = nil
            without.names[name] = counts.isEmpty ? nil : counts
        }
        #expect(try activity.encodedNames.withUnsafeBytes { try BucketActivity.removing(user, from: $0) } == without.encodedNames)
        #expect(try activity.encodedVersions.withUnsafeBytes { try BucketActivity.removing(user, from: $0) } == without.encodedVersions)
    }
}

import Foundation
import SeededRandom
import TallyEvent
import TallyStoreTesting
import Testing

@testable import TallyStore

/// A user's timeline and the search of users by the start of their id, against brute force.
@Suite struct AppUserTests {
    /// Every user's timeline, read page by page with random sizes under several filters, is
    /// their stored events newest first (the later stored first within a millisecond), with
    /// their first-seen time, newest version and platform, and latest user properties.
    @Test(arguments: TestDatabase.all, 1...2 as ClosedRange<UInt64>)
    func timelinesPageThroughAUsersEventsNewestFirst(database: TestDatabase, seed: UInt64) async throws {
        let (store, app, sent, _) = try await SegmentOracleTests.randomStore(seed: seed, on: database)
        // Resent events are stored once, where they were first sent.
        var ids = Set<UUID>()
        let stored = sent.filter { ids.insert($0.id).inserted }
        let latest = MetricsOracle.latestValues(stored, properties: SegmentOracleTests.properties)
        var random = SplitMix64(seed: seed)
        let users = Set(stored.map(\.userID)).sorted()
        #expect(users.count > 20)
        for (index, user) in users.enumerated() {
            let filter = index % 3 == 0 ? SegmentFilter() : SegmentOracleTests.filters[index % SegmentOracleTests.filters.count]
            let matches = MetricsOracle.matching(filter, properties: SegmentOracleTests.properties)(stored)
            let newestFirst = stored.enumerated().filter { $0.element.userID == user }
                .sorted { ($0.element.timestamp, $0.offset) > ($1.element.timestamp, $1.offset) }.map(\.element)
            var read: [Event] = []
            var before: UserTimeline.Cursor?
            repeat {
                let limit = Int.random(in: 1...40, using: &random)
                let page = try #require(try await store.users.timeline(app: app, user: user, before: before, limit: limit, filter: filter))
                #expect(page.user == AppUser(id: user, firstSeen: newestFirst.map(\.timestamp).min()!))
                #expect(page.appVersion == newestFirst[0].appVersion && page.platform == newestFirst[0].platform)
                #expect(page.properties == latest[user] ?? [:])
                #expect(page.events.count <= limit && (page.next == nil || page.events.count == limit))
                read += page.events
                before = page.next
                // Cursors pass through text, as the API sends them.
                before = before.flatMap { UserTimeline.Cursor($0.description) }
            } while before != nil
            #expect(read == newestFirst.filter(matches), "seed \(seed), \(user), \(filter)")
        }
        #expect(try await store.users.timeline(app: app, user: "nobody") == nil)
        let other = try await store.apps.create(name: "Other").app.id
        #expect(try await store.users.timeline(app: other, user: users[0]) == nil)
        await #expect(throws: TallyStoreError.unknownFilterProperty("tier")) {
            try await store.users.timeline(app: app, user: users[0], filter: SegmentFilter([.is("tier", "gold")]))
        }
    }

    /// Each user property's values are counted over the users' latest values, most users first.
    @Test(arguments: TestDatabase.all, 1...2 as ClosedRange<UInt64>)
    func userPropertyValuesCountEachUsersLatestValue(database: TestDatabase, seed: UInt64) async throws {
        let (store, app, sent, _) = try await SegmentOracleTests.randomStore(seed: seed, on: database)
        let latest = MetricsOracle.latestValues(sent, properties: SegmentOracleTests.properties)
        let others = SegmentOracleTests.properties.event + ["tier"]
        let all = SegmentOracleTests.properties.user + others
        let read = try await store.users.propertyValues(app: app, properties: all, limit: 100)
        let first = try await store.users.propertyValues(app: app, properties: all, limit: 1)
        for property in SegmentOracleTests.properties.user {
            var counts: [String: Int] = [:]
            for values in latest.values { if let value = values[property] { counts[value, default: 0] += 1 } }
            let expected = counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
            #expect(expected.count > 1)
            let values = read[property] ?? []
            #expect(values.map(\.value) == expected.map(\.key) && values.map(\.users) == expected.map(\.value), "seed \(seed)")
            #expect(first[property]?.map(\.value) == [expected[0].key])
        }
        #expect(others.allSatisfy { read[$0] == nil }, "only the app's user properties have values")
        await #expect(throws: TallyStoreError.unknownApp(AppID(rawValue: 99))) {
            try await store.users.propertyValues(app: AppID(rawValue: 99), properties: ["plan"])
        }
    }

    /// A user active on 70 days, an event a day: a page reads 64 of those days, so a filter
    /// matching only the oldest event answers an empty page with a `next`, then the event.
    @Test(arguments: TestDatabase.all)
    func aPageReadsAtMost64DaysOfLogs(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Long").app.id
        let start = instant("2026-01-01T12:00:00Z")
        let events = (0..<70).map { day in event(at: start.addingTimeInterval(Double(day) * 86_400), user: "ana", version: day == 0 ? "0.9" : "1.0") }
        try await store.events.insert(events, app: app)
        let filter = SegmentFilter([.is("app_version", "0.9")])
        let first = try #require(try await store.users.timeline(app: app, user: "ana", filter: filter))
        #expect(first.events.isEmpty && first.appVersion == "1.0")
        let next = try #require(first.next)
        let second = try #require(
            try await store.users.timeline(app: app, user: "ana", before: UserTimeline.Cursor(next.description), filter: filter))
        #expect(second.events.map(\.id) == [events[0].id] && second.next == nil)
        // Unfiltered too: 64 days' events, then the rest.
        let newest = try #require(try await store.users.timeline(app: app, user: "ana", limit: 100))
        #expect(newest.events.map(\.id) == events.reversed().prefix(64).map(\.id))
        let rest = try #require(try await store.users.timeline(app: app, user: "ana", before: newest.next, limit: 100))
        #expect(rest.events.map(\.id) == events.prefix(6).reversed().map(\.id) && rest.next == nil)
    }

    /// Ids of many scripts, with prefixes of each and of none: each search is the ids starting
    /// with the prefix in code point order, the first `limit` of them.
    @Test(arguments: TestDatabase.all)
    func searchesAreTheIdsStartingWithThePrefixInCodePointOrder(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Search").app.id
        var random = SplitMix64(seed: 31)
        let alphabet: [Unicode.Scalar] = [
            "a", "b", "A", "z", "0", "_", "é", "ü", "中", "文", "\u{D7FF}", "\u{E000}", "\u{FFFF}", "\u{10000}", "😀", "\u{10FFFF}",
        ]
        var firstSeen: [String: Date] = [:]
        var events: [Event] = []
        for index in 0..<600 {
            var id = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 1...4, using: &random) { id.append(alphabet.randomElement(using: &random)!) }
            let user = String(id)
            let time = instant("2026-03-02T00:00:00Z").addingTimeInterval(Double(index))
            firstSeen[user] = min(firstSeen[user] ?? time, time)
            events.append(event(at: time, user: user))
        }
        try await store.events.insert(events, app: app)
        func codePoints(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }
        let ids = firstSeen.keys.sorted { codePoints($0).lexicographicallyPrecedes(codePoints($1)) }
        var prefixes =
            [""]
            + ids.prefix(60).flatMap { id in (1...id.unicodeScalars.count).map { String(String.UnicodeScalarView(id.unicodeScalars.prefix($0))) } }
        prefixes += ["\u{10FFFF}\u{10FFFF}", "\u{D7FF}", "zz", "q"]
        for prefix in Set(prefixes).sorted() {
            let limit = Int.random(in: 1...30, using: &random)
            let expected = ids.filter { $0.unicodeScalars.starts(with: prefix.unicodeScalars) }.prefix(limit)
                .map { AppUser(id: $0, firstSeen: firstSeen[$0]!) }
            #expect(try await store.users.search(app: app, prefix: prefix, limit: limit) == expected, "prefix \(codePoints(prefix))")
        }
        let other = try await store.apps.create(name: "Other").app.id
        #expect(try await store.users.search(app: other, prefix: "") == [])
        await #expect(throws: TallyStoreError.unknownApp(AppID(rawValue: 999))) {
            try await store.users.search(app: AppID(rawValue: 999), prefix: "a")
        }
    }
}

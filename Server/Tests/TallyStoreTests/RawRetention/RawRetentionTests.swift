import Foundation
import TallyEvent
import TallyStoreTesting
import Testing

@testable import TallyStore

/// An app's raw event retention: the setting, the horizon's edge, apps without one, what
/// reads of raw events say, and what stays refused once events are gone.
@Suite struct RawRetentionTests {
    /// When the pruning runs: a 40-day retention puts the horizon at 2026-01-20T00:00Z.
    static let now = instant("2026-03-01T12:34:56Z")
    static let horizon = instant("2026-01-20T00:00:00Z")

    /// The ids of `app`'s raw events, through the export.
    static func kept(_ store: EventStore, app: AppID) async throws -> Set<UUID> {
        var ids = Set<UUID>()
        for try await event in store.events.export(app: app, from: .distantPast, to: .distantFuture) { ids.insert(event.id) }
        return ids
    }

    @Test func theHorizonIsUTCMidnightTheDaysBeforeToday() {
        #expect(App.rawEventsHorizon(days: 40, at: Self.now) == Self.horizon)
        #expect(App.rawEventsHorizon(days: 1, at: instant("2026-03-01T00:00:00Z")) == instant("2026-02-28T00:00:00Z"))
        #expect(App.rawEventsHorizon(days: 1, at: instant("1969-12-31T23:00:00Z")) == instant("1969-12-30T00:00:00Z"))
    }

    /// A retention is set, shown, refused when it would not outlast the accepted event age by
    /// a day (either changed), and taken back with `forever`.
    @Test(arguments: TestDatabase.all)
    func theSettingIsValidatedAndReversible(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "A").app
        #expect(app.rawRetentionDays == nil)
        #expect(try await store.apps.app(id: app.id)?.rawRetentionDays == nil)
        // The accepted event age is 30 days: 31 days of raw events is the least.
        await #expect(throws: TallyStoreError.invalidRawRetention(days: 30, acceptedEventAge: 30 * 86_400)) {
            try await store.apps.update(app.id, rawRetention: .days(30))
        }
        for days in [0, -3, RawRetention.maximumDays + 1] {
            await #expect(throws: TallyStoreError.self) { try await store.apps.update(app.id, rawRetention: .days(days)) }
        }
        #expect(try await store.apps.update(app.id, rawRetention: .days(31)).rawRetentionDays == 31)
        // A longer accepted age is refused while the retention would not outlast it.
        await #expect(throws: TallyStoreError.invalidRawRetention(days: 31, acceptedEventAge: 31 * 86_400)) {
            try await store.apps.update(app.id, acceptedEventAge: 31 * 86_400)
        }
        let both = try await store.apps.update(app.id, acceptedEventAge: 1 * 86_400, rawRetention: .days(2))
        #expect((both.rawRetentionDays, both.acceptedEventAge) == (2, 86_400))
        // Other settings leave it alone.
        #expect(try await store.apps.update(app.id, timeZone: "Europe/Paris").rawRetentionDays == 2)
        #expect(try await store.apps.all().first?.rawRetentionDays == 2)
        #expect(try await store.apps.update(app.id, rawRetention: .forever).rawRetentionDays == nil)
        #expect(try await store.apps.app(id: app.id)?.rawRetentionDays == nil)
        await #expect(throws: TallyStoreError.unknownApp(AppID(rawValue: 999))) {
            try await store.apps.update(AppID(rawValue: 999), rawRetention: .days(40))
        }
    }

    /// An event exactly at the horizon is kept, one a millisecond before it deleted, in the
    /// app's production and debug events; an app without a retention keeps everything, and
    /// pruning an app that went back to `forever` deletes nothing more.
    @Test(arguments: TestDatabase.all)
    func theHorizonIsKeptAndOtherAppsAreUntouched(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let pruned = try await store.apps.create(name: "Pruned").app.id
        let keeper = try await store.apps.create(name: "Keeper").app.id
        let edge = [Self.horizon.addingTimeInterval(-0.001), Self.horizon, Self.horizon.addingTimeInterval(0.001)]
        let times = [instant("2025-11-03T10:00:00Z"), instant("2026-01-01T00:00:00Z")] + edge + [instant("2026-03-01T12:00:00Z")]
        var events: [AppID: [Event]] = [:]
        for app in [pruned, keeper] {
            for isDebug in [false, true] {
                let batch = times.map { time in
                    var made = event(at: time, user: "u\(time.timeIntervalSince1970)")
                    made.isDebug = isDebug
                    return made
                }
                try await store.events.insert(batch, app: app)
                events[isDebug ? app.debug : app] = batch
            }
        }
        _ = try await store.apps.update(pruned, rawRetention: .days(40))
        let pruning = try await store.dataRetention.prune(now: Self.now)
        #expect(pruning.keptSince == [pruned: Self.horizon])
        #expect(pruning.deletedEvents == 2 * 3)
        for id in [pruned, pruned.debug] {
            #expect(try await Self.kept(store, app: id) == Set(events[id]!.filter { $0.timestamp >= Self.horizon }.map(\.id)), "\(id)")
        }
        for id in [keeper, keeper.debug] {
            #expect(try await Self.kept(store, app: id) == Set(events[id]!.map(\.id)), "\(id)")
        }
        #expect(try await store.apps.app(id: pruned)?.rawEventsKeptSince == Self.horizon)
        #expect(try await store.apps.app(id: keeper)?.rawEventsKeptSince == nil)

        // Back to keeping everything: a later pruning leaves the app alone, and it still says
        // since when its raw events are kept.
        _ = try await store.apps.update(pruned, rawRetention: .forever)
        #expect(try await store.dataRetention.prune(now: Self.now.addingTimeInterval(86_400 * 30)) == RawEventPruning())
        #expect(try await Self.kept(store, app: pruned).count == 3)
        #expect(try await store.apps.app(id: pruned)?.rawEventsKeptSince == Self.horizon)
    }

    /// On PostgreSQL a month only apps past their horizon have events in is emptied whole; a
    /// month where an app without a retention has events keeps that app's and loses only the
    /// others' rows.
    @Test func postgresEmptiesWholeMonthsOnlyWhenNoAppKeepsThem() async throws {
        guard TestDatabase.all.contains(.postgres) else { return }
        let store = try await TestDatabase.postgres.makeStore()
        let pruned = try await store.apps.create(name: "Pruned").app.id
        let keeper = try await store.apps.create(name: "Keeper").app.id
        let november = [event(at: instant("2025-11-03T10:00:00Z")), event(at: instant("2025-11-30T23:59:59.999Z"))]
        let december = [event(at: instant("2025-12-10T10:00:00Z"))]
        let january = [event(at: instant("2026-01-19T23:59:59.999Z")), event(at: instant("2026-01-20T00:00:00Z"))]
        try await store.events.insert(november + december + january, app: pruned)
        let keeperEvent = event(at: instant("2025-12-01T00:00:00Z"))
        try await store.events.insert([keeperEvent], app: keeper)
        _ = try await store.apps.update(pruned, rawRetention: .days(40))

        let pruning = try await store.dataRetention.prune(now: Self.now)
        #expect(pruning.emptiedPartitions == ["event_y2025m11"])
        #expect(pruning.deletedEvents == 4)
        #expect(try await Self.kept(store, app: pruned) == [january[1].id])
        #expect(try await Self.kept(store, app: keeper) == [keeperEvent.id])
        // The emptied month still takes events: its partition is still there.
        let late = event(at: instant("2025-11-15T00:00:00Z"))
        try await store.events.insert([late], app: keeper)
        #expect(try await Self.kept(store, app: keeper) == [keeperEvent.id, late.id])
    }

    /// Two prunings at once (two collectors): one prunes, the other skips on PostgreSQL or
    /// waits its turn on SQLite; either way the events before the horizon are gone, once.
    @Test(arguments: TestDatabase.all)
    func concurrentPruningsDeleteEachEventOnce(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "A").app.id
        let old = (0..<3_000).map { event(at: instant("2025-12-01T00:00:00Z").addingTimeInterval(Double($0)), user: "u\($0 % 50)") }
        let recent = (0..<100).map { event(at: instant("2026-02-01T00:00:00Z").addingTimeInterval(Double($0))) }
        try await store.events.insert(old, app: app)
        try await store.events.insert(recent, app: app)
        _ = try await store.apps.update(app, rawRetention: .days(40))
        async let first = store.dataRetention.prune(now: Self.now)
        async let second = store.dataRetention.prune(now: Self.now)
        let prunings = try await [first, second]
        #expect(prunings.map(\.deletedEvents).reduce(0, +) == old.count)
        #expect(try await Self.kept(store, app: app) == Set(recent.map(\.id)))
    }

    /// Reads of raw events say what they no longer cover: the timeline stops at the horizon
    /// and names it, a breakdown of a day before it names it, one of a later day does not.
    @Test(arguments: TestDatabase.all)
    func readsOfRawEventsSaySinceWhenTheyAreKept(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "A").app.id
        let old = event(name: "buy", at: instant("2026-01-10T10:00:00Z"), user: "ann", properties: ["plan": "pro"])
        let kept = event(name: "buy", at: instant("2026-02-10T10:00:00Z"), user: "ann", properties: ["plan": "pro"])
        let newcomer = event(name: "buy", at: instant("2026-02-11T10:00:00Z"), user: "bob", properties: ["plan": "free"])
        try await store.events.insert([old, kept, newcomer], app: app)
        _ = try await store.apps.update(app, rawRetention: .days(40))
        _ = try await store.dataRetention.prune(now: Self.now)

        let ann = try #require(try await store.users.timeline(app: app, user: "ann"))
        #expect(ann.events.map(\.id) == [kept.id])
        #expect(ann.next == nil)
        #expect(ann.rawEventsKeptSince == Self.horizon)
        #expect(ann.user.firstSeen == old.timestamp)
        // A user first seen after the horizon has all their events: nothing to say.
        #expect(try await store.users.timeline(app: app, user: "bob")?.rawEventsKeptSince == nil)

        let before = try await store.metrics.breakdown(
            event: "buy", by: "plan", in: ReadScope(app: app, day: CalendarDay("2026-01-10")!, timeZone: TimeZone(identifier: "UTC")))
        #expect(before.rawEventsKeptSince == Self.horizon)
        #expect(before.top.isEmpty)
        let after = try await store.metrics.breakdown(
            event: "buy", by: "plan", in: ReadScope(app: app, day: CalendarDay("2026-02-10")!, timeZone: TimeZone(identifier: "UTC")))
        #expect(after.rawEventsKeptSince == nil)
        #expect(after.top.map(\.value) == ["pro"])
        // The rollups still count the pruned day.
        #expect(
            try await store.metrics.day(ReadScope(app: app, day: CalendarDay("2026-01-10")!, timeZone: TimeZone(identifier: "UTC"))).events["buy"]
                == 1)
    }

    /// Changing the segment properties rebuilds the segment index from raw events: refused
    /// once some were pruned, with the instant since when they are kept, and changing nothing;
    /// allowed before any pruning.
    @Test(arguments: TestDatabase.all)
    func segmentPropertiesCannotBeRebuiltOverPrunedEvents(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "A").app.id
        try await store.events.insert([event(at: instant("2026-01-10T10:00:00Z")), event(at: instant("2026-02-10T10:00:00Z"))], app: app)
        _ = try await store.apps.update(app, segmentProperties: SegmentProperties(event: ["plan"]), rawRetention: .days(40))
        _ = try await store.dataRetention.prune(now: Self.now)
        let before = try await store.metrics.day(
            ReadScope(
                app: app, day: CalendarDay("2026-01-10")!, timeZone: TimeZone(identifier: "UTC"), filter: SegmentFilter([.is("app_version", "1.0")])))
        #expect(before.dau == 1)
        await #expect(throws: TallyStoreError.rawEventsPruned(app, keptSince: Self.horizon.unixMilliseconds)) {
            try await store.apps.update(app, segmentProperties: SegmentProperties(event: ["other"]))
        }
        #expect(try await store.apps.app(id: app)?.segmentProperties == SegmentProperties(event: ["plan"]))
        // The same properties again rebuild nothing, and other settings still change.
        #expect(
            try await store.apps.update(app, timeZone: "Asia/Tokyo", segmentProperties: SegmentProperties(event: ["plan"])).timeZone == "Asia/Tokyo")
        #expect(
            try await store.metrics.day(
                ReadScope(
                    app: app, day: CalendarDay("2026-01-10")!, timeZone: TimeZone(identifier: "UTC"),
                    filter: SegmentFilter([.is("app_version", "1.0")]))) == before)
    }
}

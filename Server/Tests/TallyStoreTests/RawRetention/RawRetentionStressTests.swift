import Foundation
import TallyEvent
import TallyStoreTesting
import Testing

@testable import TallyStore

/// Pruning while ingest goes on, in batches so small that hundreds of them interleave with
/// ingest's group commits: every acknowledged event is kept, every event before the horizon
/// is gone, and the rollups count every event, pruned or not.
@Suite struct RawRetentionStressTests {
    @Test(arguments: TestDatabase.all)
    func pruningDuringIngestLosesNothingAcknowledged(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "A").app.id
        let horizon = instant("2026-01-20T00:00:00Z")
        // 20,000 events before the horizon and 2,000 after it, on 2026-01-10 and 2026-01-25.
        let old = (0..<20_000).map { event(at: instant("2026-01-10T00:00:00Z").addingTimeInterval(Double($0)), user: "old\($0 % 300)") }
        let kept = (0..<2_000).map { event(at: instant("2026-01-25T00:00:00Z").addingTimeInterval(Double($0)), user: "kept\($0 % 40)") }
        for chunk in stride(from: 0, to: old.count, by: 1_000) { try await store.events.insert(Array(old[chunk..<chunk + 1_000]), app: app) }
        try await store.events.insert(kept, app: app)
        _ = try await store.apps.update(app, rawRetention: .days(40))

        // Four clients send 60 batches of 25 events each meanwhile, after the horizon.
        let ingested = try await withThrowingTaskGroup(of: [Event].self) { group in
            for client in 0..<4 {
                group.addTask {
                    var acknowledged: [Event] = []
                    for batch in 0..<60 {
                        let events = (0..<25).map { index in
                            event(
                                at: instant("2026-01-26T00:00:00Z").addingTimeInterval(Double(client * 10_000 + batch * 25 + index)),
                                user: "new\(client)-\(index % 7)")
                        }
                        let result = try await store.events.insert(events, app: app)
                        #expect(result.accepted == events.count)
                        acknowledged += events
                    }
                    return acknowledged
                }
            }
            // Batches of about 50 µs: hundreds of them, each a transaction of its own.
            let pruning = try await store.backend.pruneRawEvents(horizons: [app: horizon.unixMilliseconds], batchTarget: .microseconds(50))
            #expect(pruning.deletedEvents == old.count)
            if database == .sqlite { #expect(pruning.batches > 20) }
            var all: [Event] = []
            for try await events in group { all += events }
            return all
        }
        #expect(ingested.count == 4 * 60 * 25)
        #expect(try await RawRetentionTests.kept(store, app: app) == Set((kept + ingested).map(\.id)))
        for (date, events) in [("2026-01-10", old), ("2026-01-25", kept), ("2026-01-26", ingested)] {
            let metrics = try await store.metrics.day(ReadScope(app: app, day: CalendarDay(date)!, timeZone: TimeZone(identifier: "UTC")))
            #expect(metrics.events["open"] == events.count, "\(date)")
            #expect(metrics.dau == Set(events.map(\.userID)).count, "\(date)")
        }
    }
}

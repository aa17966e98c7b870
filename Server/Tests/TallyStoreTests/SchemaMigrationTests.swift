import Foundation
import GRDB
import Testing

@testable import TallyStore

/// Opening a database of an earlier schema rebuilds the rollups from its raw events.
@Suite struct SchemaMigrationTests {
    /// A database left at schema "v2" (before per-app user numbers and user sets) with the
    /// raw events of a random store answers, once opened, exactly as the store that ingested them.
    @Test func rollupsRebuiltFromRawEventsMatchIngestedOnes() async throws {
        let (ingested, app, events, timeZone) = try await MetricsPropertyTests.randomStore(seed: 3, on: .sqlite)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("TallyStoreTests/\(UUID().uuidString).sqlite").path
        let source = try await ingested.pool.read { db in try String.fetchOne(db, sql: "SELECT file FROM pragma_database_list WHERE name = 'main'")! }
        do {
            let old = try DatabaseQueue(path: path)
            try Schema.migrator.migrate(old, upTo: "v2")
            try old.inDatabase { db in
                try db.execute(sql: "ATTACH DATABASE ? AS ingested", arguments: [source])
                try db.execute(sql: "INSERT INTO app SELECT * FROM ingested.app; INSERT INTO event SELECT * FROM ingested.event")
                try db.execute(sql: "DETACH DATABASE ingested")
            }
        }
        let upgraded = try EventStore(path: path)

        let oracle = MetricsOracle(events: events, timeZone: timeZone)
        let first = oracle.day(of: Date(unixMilliseconds: MetricsPropertyTests.start))
        for offset in -1...41 {
            let date = oracle.day(first, offset: offset)
            let metrics = try await upgraded.metrics(app: app, date: date, timeZone: timeZone)
            #expect(metrics == (try await ingested.metrics(app: app, date: date, timeZone: timeZone)), "\(date)")
            #expect(metrics.dau == oracle.metrics(date: date, timeZone: timeZone).dau)
        }
        let (from, to) = (oracle.day(first, offset: 0), oracle.day(first, offset: 40))
        #expect(
            try await upgraded.retention(app: app, from: from, to: to, timeZone: timeZone)
                == (try await ingested.retention(app: app, from: from, to: to, timeZone: timeZone)))
    }
}

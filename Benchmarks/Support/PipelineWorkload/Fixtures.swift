import Foundation
import Synchronization
import TallyStore

/// Stores filled with ``Workload`` days, generated once and cached on disk, because filling
/// 10 million events takes minutes.
///
/// The cache lives in `$TMPDIR/tally-pipeline-fixtures` (`/tmp` by default): `store-<days>d.sqlite`
/// plus a `.done` marker written when filling finished (a file without it is rebuilt). The
/// 60-day store starts as a copy of the 6-day one. Delete the folder after a schema change.
package enum Fixtures {
    /// 2026-01-01T00:00:00Z, the first day of every fixture.
    package static let start = Date(timeIntervalSince1970: 1_767_225_600)
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-pipeline-fixtures")

    /// The store holding days `0..<days` of `population` (6 days of 20k users ≈ 1.05M events,
    /// 60 ≈ 10.6M; 60 of 200k users ≈ 10.8M) and its app, opened once per run so that
    /// iterations share its connections and page caches.
    package static func store(
        days: Int, of population: Workload.Population = .twentyThousand
    ) async throws -> (store: EventStore, app: AppID) {
        try await opened.withLock { opened in
            opened[Key(days: days, population: population), default: Task {
                let store = try EventStore(path: try await fill(days: days, of: population))
                return (store, try await store.apps()[0].id)
            }]
        }.value
    }

    private struct Key: Hashable {
        let days: Int
        let population: Workload.Population
    }

    private static let opened = Mutex<[Key: Task<(store: EventStore, app: AppID), any Error>]>([:])

    /// The day `day` of the fixtures, as `YYYY-MM-DD`.
    package static func date(_ day: Int) -> String {
        String(start.addingTimeInterval(Double(day) * 86_400).ISO8601Format().prefix(10))
    }

    /// The file of the store holding days `0..<days` of `population`, filled once
    /// ``store(days:of:)`` returned.
    package static func path(days: Int, of population: Workload.Population = .twentyThousand) -> String {
        let users = population == .twentyThousand ? "" : "-\(population.users / 1000)k"
        return folder.appendingPathComponent("store-\(days)d\(users).sqlite").path
    }

    private static func fill(days: Int, of population: Workload.Population) async throws -> String {
        let path = path(days: days, of: population)
        let done = path + ".done"
        if FileManager.default.fileExists(atPath: done) { return path }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        var first = 0
        if days > 6 {
            let source = try await fill(days: 6, of: population)
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: source + suffix) {
                try FileManager.default.copyItem(atPath: source + suffix, toPath: path + suffix)
            }
            first = 6
        }
        let store = try EventStore(path: path)
        let app = first == 0 ? try await store.createApp(name: "Bench").app.id : try await store.apps()[0].id
        for day in first..<days {
            let events = Workload.events(day: day, from: start, of: population)
            for batch in stride(from: 0, to: events.count, by: 5_000) {
                try await store.insert(Array(events[batch..<min(batch + 5_000, events.count)]), app: app)
            }
            print("fixture \(days)d: day \(day + 1) of \(days) stored")
        }
        _ = FileManager.default.createFile(atPath: done, contents: nil)
        return path
    }
}

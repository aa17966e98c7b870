import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GRDB
import TallyStore

/// The ingest workload of both sides of the comparison: ``events`` (one generated day's
/// first events, re-dated to the last 24 hours so the server accepts them) sent over HTTP in
/// batches of ``batchSize``, or inserted straight into SQLite.
enum IngestLoad {
    static let count = 20_000
    static let batchSize = 100
    static let connections = 8

    static let events: [Event] = {
        let yesterday = Date().addingTimeInterval(-86_400)
        let midnight = Date(timeIntervalSince1970: (yesterday.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
        return Workload.events(day: 0, from: midnight).prefix(count).map { event in
            var event = event
            event.timestamp = min(event.timestamp, Date())
            event.deviceTimestamp = event.timestamp
            return event
        }
    }()

    /// The ingest bodies, `{"sent_at": …, "events": […]}`, of ``batchSize`` events each.
    static let bodies: [Data] = stride(from: 0, to: events.count, by: batchSize).map { start in
        let objects = events[start..<min(start + batchSize, events.count)].map { event -> [String: Any] in
            [
                "id": event.id.uuidString, "name": event.name, "timestamp": event.timestamp.ISO8601Format(),
                "user_id": event.userID, "session_id": event.sessionID ?? NSNull(), "app_version": event.appVersion,
                "platform": event.platform, "properties": event.properties.mapValues { value -> Any in
                    switch value {
                    case .string(let text): text
                    case .number(let number): number
                    case .bool(let flag): flag
                    case .null: NSNull()
                    }
                },
            ]
        }
        return try! JSONSerialization.data(withJSONObject: ["sent_at": Date().ISO8601Format(), "events": objects])
    }

    /// POSTs every body to `url` over ``connections`` concurrent connections; each request
    /// returns once its events are durably stored.
    static func post(to url: URL, key: String) async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = connections
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let next = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<connections {
                group.addTask {
                    while let index = next.take(below: bodies.count) {
                        var request = URLRequest(url: url.appendingPathComponent("v1/events"))
                        request.httpMethod = "POST"
                        request.setValue(key, forHTTPHeaderField: "X-App-Key")
                        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                        let (_, response) = try await session.upload(for: request, from: bodies[index])
                        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// The floor: ``events`` inserted into a fresh database at `path` with the store's `event`
    /// table and indexes and its durability (WAL, `synchronous = FULL`), by one prepared
    /// statement in one transaction, properties pre-encoded: SQLite's own cost, nothing else.
    struct RawFloor {
        private let pool: DatabasePool
        private let rows: [StatementArguments]

        init(path: String) throws {
            pool = try DatabasePool(path: path)
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
                try db.execute(sql: """
                    CREATE TABLE event (
                        app_id INTEGER NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, timestamp INTEGER NOT NULL,
                        device_timestamp INTEGER NOT NULL, user_id TEXT NOT NULL, session_id TEXT,
                        app_version TEXT NOT NULL, platform TEXT NOT NULL, properties TEXT NOT NULL);
                    CREATE UNIQUE INDEX event_by_id ON event(app_id, id);
                    CREATE INDEX event_by_time ON event(app_id, timestamp);
                    """)
            }
            rows = IngestLoad.events.map { event in
                let milliseconds = Int64((event.timestamp.timeIntervalSince1970 * 1000).rounded())
                let properties = event.name == "screen_view" ? #"{"screen":"screen_1"}"# : #"{"button":"b1","value":1.5}"#
                return [
                    1, event.id.uuidString, event.name, milliseconds, milliseconds, event.userID, event.sessionID,
                    event.appVersion, event.platform, properties,
                ]
            }
        }

        func insert() throws {
            try pool.write { db in
                let statement = try db.makeStatement(sql: "INSERT INTO event VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                for row in rows { try statement.execute(arguments: row) }
            }
        }
    }
}

/// A shared index handed out once each.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    /// The next index below `limit`, or `nil` when all were taken.
    func take(below limit: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard value < limit else { return nil }
        value += 1
        return value - 1
    }
}

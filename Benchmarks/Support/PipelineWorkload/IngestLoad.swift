import Foundation
import GRDB
import GRDBSQLite
import TallyEvent
import TallyStore

/// The ingest workload of both sides of the comparison: ``events`` sent over HTTP in batches
/// of ``batchSize``, or inserted straight into SQLite.
///
/// The events are a generated day's first ``count`` in time order, as a collector receives
/// them: each batch holds about a minute of traffic from many users, every one of them new to
/// the store (the database starts empty). The day is re-dated to the last 24 hours so the
/// server accepts it.
package enum IngestLoad {
    package static let count = 20_000
    static let batchSize = 100
    /// Uploads in flight, 16 unless `TALLY_BENCH_CONNECTIONS` says otherwise. Each waits for
    /// its durable acknowledgement (a transaction and a WAL sync, ≈ 20 ms), so at 8 the
    /// collector idles between groups; 16 keep SQLite's writer busy, and PostgreSQL's two
    /// transactions in flight need more to be kept busy.
    static let connections = ProcessInfo.processInfo.environment["TALLY_BENCH_CONNECTIONS"].flatMap { Int($0) }.map { max($0, 1) } ?? 16

    static let events: [Event] = {
        let yesterday = Date().addingTimeInterval(-86_400)
        let midnight = Date(timeIntervalSince1970: (yesterday.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
        let day = Workload.events(day: 0, from: midnight).sorted { $0.timestamp < $1.timestamp }
        return day.prefix(count).map { event in
            var event = event
            event.timestamp = min(event.timestamp, Date())
            event.deviceTimestamp = event.timestamp
            return event
        }
    }()

    /// The ingest bodies, `{"sent_at": …, "events": […]}`, of ``batchSize`` events each.
    package static let bodies: [Data] = stride(from: 0, to: events.count, by: batchSize).map { start in
        let objects = events[start..<min(start + batchSize, events.count)].map { event -> [String: Any] in
            [
                "id": event.id.uuidString, "name": event.name, "timestamp": event.timestamp.ISO8601Format(),
                "user_id": event.userID, "session_id": event.sessionID ?? NSNull(), "app_version": event.appVersion,
                "platform": event.platform, "properties": jsonProperties(event),
            ]
        }
        return try! JSONSerialization.data(withJSONObject: ["sent_at": Date().ISO8601Format(), "events": objects])
    }

    /// The properties of `event` as `JSONSerialization` takes them.
    private static func jsonProperties(_ event: Event) -> [String: Any] {
        event.properties.mapValues { value -> Any in
            switch value {
            case .string(let text): text
            case .int(let number): number
            case .double(let number): number
            case .bool(let flag): flag
            case .null: NSNull()
            }
        }
    }

    /// POSTs every body to `url` over ``connections`` concurrent connections; each request
    /// returns once its events are durably stored.
    package static func post(to url: URL, key: String) async throws {
        try await LoadClient.post(
            bodies, path: "/v1/events", port: url.port!, headers: ["X-App-Key": key], connections: connections)
    }

    /// The ingestion APIs of other vendors' SDKs the collector speaks.
    package enum ForeignAPI: String, CaseIterable, Sendable {
        /// PostHog's capture API: `POST /batch/`, the key in the body.
        case postHog = "PostHog /batch/"
        /// Segment's tracking API: `POST /v1/batch`, the key as the Basic authentication user.
        case segment = "Segment /v1/batch"
    }

    /// The same batches as ``bodies`` in `api`'s format, for the app of `key`: the same ids,
    /// names, users, times, versions, platforms and properties (Segment has no session).
    package static func bodies(_ api: ForeignAPI, key: String) -> [Data] {
        stride(from: 0, to: events.count, by: batchSize).map { start in
            let batch = events[start..<min(start + batchSize, events.count)].map { event -> [String: Any] in
                let properties = jsonProperties(event)
                switch api {
                case .postHog:
                    return [
                        "uuid": event.id.uuidString, "event": event.name, "distinct_id": event.userID,
                        "timestamp": event.timestamp.ISO8601Format(),
                        "properties": properties.merging([
                            "$session_id": event.sessionID ?? NSNull(), "$app_version": event.appVersion, "$os": event.platform,
                        ]) { own, _ in own },
                    ]
                case .segment:
                    return [
                        "type": "track", "messageId": event.id.uuidString, "event": event.name, "userId": event.userID,
                        "timestamp": event.timestamp.ISO8601Format(), "properties": properties,
                        "context": ["app": ["version": event.appVersion], "os": ["name": event.platform]],
                    ]
                }
            }
            let body: [String: Any] =
                switch api {
                case .postHog: ["api_key": key, "sent_at": Date().ISO8601Format(), "batch": batch]
                case .segment: ["sentAt": Date().ISO8601Format(), "batch": batch]
                }
            return try! JSONSerialization.data(withJSONObject: body)
        }
    }

    /// POSTs `bodies`, made by ``bodies(_:key:)`` for `api`, as ``post(to:key:)`` does.
    package static func post(_ bodies: [Data], api: ForeignAPI, to url: URL, key: String) async throws {
        switch api {
        case .postHog:
            try await LoadClient.post(bodies, path: "/batch/", port: url.port!, headers: [:], connections: connections)
        case .segment:
            let user = Data("\(key):".utf8).base64EncodedString()
            try await LoadClient.post(
                bodies, path: "/v1/batch", port: url.port!, headers: ["Authorization": "Basic \(user)"], connections: connections)
        }
    }

    /// Throws unless `store` holds every one of ``events`` for `app`, counted by the metrics
    /// of the days they fall on: a run that lost events must not count as fast.
    package static func checkStored(in store: EventStore, app: AppID) async throws {
        let days = Set(events.map { String($0.timestamp.ISO8601Format().prefix(10)) }).sorted()
        let range = try await store.metrics.range(
            ReadScope(app: app, days: CalendarDay(days.first!)!...CalendarDay(days.last!)!, timeZone: TimeZone(identifier: "UTC")))
        let stored = range.events.values.joined().reduce(0, +)
        guard stored == events.count else { throw LoadClient.Failure(description: "stored \(stored) of \(events.count) events") }
    }

    /// The floor: ``events`` inserted into a fresh database at `path` with the store's `event`
    /// table and indexes and its durability (WAL, `synchronous = FULL`), by one prepared
    /// statement in one transaction, values bound through SQLite's C API, properties
    /// pre-encoded: SQLite's own cost, nothing else.
    package struct RawFloor {
        private let pool: DatabasePool
        private let rows: [Row]

        private struct Row {
            var id: UUID, name: String, timestamp: Int64, user: String, session: String?, version: String
            var platform: String, properties: String
        }

        package init(path: String) throws {
            pool = try DatabasePool(path: path)
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
                try db.execute(
                    sql: """
                        CREATE TABLE event (
                            app_id INTEGER NOT NULL, id BLOB NOT NULL, name TEXT NOT NULL, timestamp INTEGER NOT NULL,
                            device_timestamp INTEGER NOT NULL, user_id TEXT NOT NULL, session_id TEXT,
                            app_version TEXT NOT NULL, platform TEXT NOT NULL, properties TEXT NOT NULL);
                        CREATE UNIQUE INDEX event_by_id ON event(app_id, id);
                        CREATE INDEX event_by_time ON event(app_id, timestamp);
                        """)
            }
            rows = IngestLoad.events.map { event in
                Row(
                    id: event.id, name: event.name, timestamp: Int64((event.timestamp.timeIntervalSince1970 * 1000).rounded()),
                    user: event.userID, session: event.sessionID, version: event.appVersion, platform: event.platform,
                    properties: event.name == "screen_view" ? #"{"screen":"screen_1"}"# : #"{"button":"b1","value":1.5}"#)
            }
        }

        package func insert() throws {
            try pool.write { db in
                let statement = try db.makeStatement(sql: "INSERT INTO event VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                let handle = statement.sqliteStatement
                let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
                func bind(_ text: String?, _ index: Int32) {
                    guard let text else {
                        sqlite3_bind_null(handle, index)
                        return
                    }
                    _ = text.withCString { sqlite3_bind_text(handle, index, $0, -1, transient) }
                }
                for row in rows {
                    sqlite3_bind_int64(handle, 1, 1)
                    _ = withUnsafeBytes(of: row.id.uuid) { sqlite3_bind_blob(handle, 2, $0.baseAddress, 16, transient) }
                    bind(row.name, 3)
                    sqlite3_bind_int64(handle, 4, row.timestamp)
                    sqlite3_bind_int64(handle, 5, row.timestamp)
                    bind(row.user, 6)
                    bind(row.session, 7)
                    bind(row.version, 8)
                    bind(row.platform, 9)
                    bind(row.properties, 10)
                    guard sqlite3_step(handle) == SQLITE_DONE else {
                        throw DatabaseError(message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
                    }
                    sqlite3_reset(handle)
                }
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

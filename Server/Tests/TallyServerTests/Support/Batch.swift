import Foundation
import SeededRandom
import TallyEvent
import TallyServerTesting
import TallyStore

/// Builds ingest bodies for tests.
enum Batch {
    static let iso = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// One valid event as a JSON object, with `overrides` replacing or removing fields
    /// (`NSNull()` to send null, `Optional<Any>.none` is not used: pass "REMOVE" to drop).
    static func event(
        id: UUID = UUID(), name: String = "bill_created", at time: Date = Date(), user: String = "u1",
        _ overrides: [String: Any] = [:]
    ) -> [String: Any] {
        var event: [String: Any] = [
            "id": id.uuidString, "name": name, "timestamp": time.formatted(iso), "user_id": user,
            "session_id": "s1", "app_version": "1.0.0", "platform": "ios", "properties": ["amount": 12.5],
        ]
        for (key, value) in overrides {
            if let text = value as? String, text == "REMOVE" { event[key] = nil } else { event[key] = value }
        }
        return event
    }

    /// A body `{"sent_at": ..., "events": [...]}`.
    static func body(_ events: [[String: Any]], sentAt: Date = Date()) -> Data {
        try! JSONSerialization.data(withJSONObject: ["sent_at": sentAt.formatted(iso), "events": events])
    }
}

extension LiveServer {
    /// Creates an app and returns its keys.
    func makeApp(timeZone: String = "UTC") async throws -> NewApp {
        try await store.apps.create(name: "Test", timeZone: timeZone)
    }

    /// POSTs `body` to /v1/events with `key`.
    func ingest(_ body: Data, key: String, headers: [String: String] = [:]) async throws -> (
        status: Int, json: [String: Any], headers: [String: String]
    ) {
        let response = try await request(
            "/v1/events", method: "POST", headers: headers.merging(["X-App-Key": key]) { own, _ in own }, body: body
        )
        let json = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
        return (response.status, json, response.headers)
    }
}

extension LiveServer {
    /// GETs a metrics path with `token` as the bearer token (none when `nil`).
    func metrics(_ path: String, token: String?) async throws -> (status: Int, json: [String: Any]) {
        let headers = token.map { ["Authorization": "Bearer \($0)"] } ?? [:]
        let response = try await request(path, headers: headers)
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
    }

    /// Every stored event of `app`: its production events, or those of its debug builds.
    func storedEvents(_ app: NewApp, debug: Bool = false) async throws -> [Event] {
        var events: [Event] = []
        let id = debug ? app.app.id.debug : app.app.id
        for try await event in store.events.export(app: id, from: .distantPast, to: .distantFuture) { events.append(event) }
        return events
    }

    /// How many events of `app` are stored: its production events, or those of its debug builds.
    func storedCount(_ app: NewApp, debug: Bool = false) async throws -> Int {
        try await storedEvents(app, debug: debug).count
    }
}

/// `YYYY-MM-DD` of `date` in UTC.
func utcDay(_ date: Date) -> String {
    date.formatted(.iso8601.year().month().day())
}

/// Gzips `data` with the system's `gzip`.
func gzip(_ data: Data) async throws -> Data {
    try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["gzip", "-c"], input: data).output
}

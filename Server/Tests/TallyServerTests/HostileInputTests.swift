import Foundation
import GRDB
import SeededRandom
import TallyEvent
import TallyHTTP
import TallyServer
import TallyServerTesting
import TallyStoreTesting
import Testing

@testable import TallyStore

/// What an attacker holding an ingest key (they ship inside apps) can send: numbers and
/// nesting at their limits, store failures, slow subscribers. The server keeps answering,
/// rejects a bad event alone and loses nothing else.
@Suite("hostile input")
struct HostileInputTests {
    /// One valid event as JSON text whose `properties` member is `rawProperties`, verbatim.
    static func event(rawProperties: String) -> String {
        let object = Batch.event(["properties": "REMOVE"])
        let text = String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        return text.dropLast() + #","properties":\#(rawProperties)}"#
    }

    /// A body of a valid event, the event with `rawProperties`, and another valid event.
    static func sandwich(_ rawProperties: String) -> Data {
        let valid = String(decoding: try! JSONSerialization.data(withJSONObject: Batch.event()), as: UTF8.self)
        let other = String(decoding: try! JSONSerialization.data(withJSONObject: Batch.event()), as: UTF8.self)
        let sentAt = Date().formatted(Batch.iso)
        return Data(#"{"sent_at":"\#(sentAt)","events":[\#(valid),\#(event(rawProperties: rawProperties)),\#(other)]}"#.utf8)
    }

    @Test(arguments: [
        (Sample("123456789012345678901"), true), (Sample("-9223372036854775808"), true), (Sample("-0"), true),
        (Sample("1e-400"), true), (Sample("5,000 digits", String(repeating: "7", count: 5_000)), false),
        (Sample("1e400"), false), (Sample("-1e400"), false), (Sample("1."), false), (Sample(".5"), false),
        (Sample("+1"), false), (Sample("01"), false), (Sample("-"), false), (Sample("1e"), false),
    ])
    func numbersAtTheLimitsAreStoredOrRejectedForTheirEventAlone(number: Sample, stored: Bool) async throws {
        try await LiveServer.with { server in
            let app = try await server.makeApp()
            let answer = try await server.ingest(Self.sandwich(#"{"n": \#(number.text)}"#), key: app.ingestKey)
            #expect(answer.status == 200)
            #expect(answer.json["accepted"] as? Int == (stored ? 3 : 2))
            let rejected = answer.json["rejected"] as? [[String: Any]] ?? []
            #expect(rejected.map { $0["index"] as? Int } == (stored ? [] : [1]))
            if let reason = rejected.first?["reason"] as? String { #expect(reason.hasPrefix("property 'n'")) }
            #expect(try await server.request("/healthz").status == 200)
        }
    }

    @Test(arguments: TestDatabase.all) func theSDKsLargestIntegersAreStoredAsNumbers(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            _ = try await server.ingest(Self.sandwich(#"{"min": -9223372036854775808, "max": 9223372036854775807}"#), key: app.ingestKey)
            let stored = try await server.storedEvents(app).map(\.properties).filter { $0["min"] != nil }
            #expect(stored == [["min": .int(.min), "max": .int(.max)]])
        }
    }

    @Test(arguments: TestDatabase.all) func nestingPastTheLimitRejectsItsEventAlone(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let deep = String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)
            let answer = try await server.ingest(Self.sandwich(#"{"deep": \#(deep)}"#), key: app.ingestKey)
            #expect(answer.status == 200)
            #expect(answer.json["accepted"] as? Int == 2)
            let rejected = answer.json["rejected"] as? [[String: Any]] ?? []
            #expect(rejected.map { $0["index"] as? Int } == [1])
            #expect((rejected.first?["reason"] as? String)?.hasPrefix("property 'deep'") == true)
        }
    }

    /// A store that fails mid-ingest (here a trigger stands in for a full or broken disk)
    /// answers 503 with `Retry-After`, as the SDK expects for "send it again", not a bare 500.
    @Test func aStoreFailureDuringIngestIs503WithRetryAfter() async throws {
        try await LiveServer.with { server in
            let app = try await server.makeApp()
            try await server.store.pool.write { db in
                try db.execute(sql: "CREATE TRIGGER broken BEFORE INSERT ON event BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END")
            }
            let failed = try await server.ingest(Batch.body([Batch.event()]), key: app.ingestKey)
            #expect(failed.status == 503)
            #expect(failed.headers["retry-after"] == "1")
            #expect((failed.json["error"] as? String)?.contains("retry") == true)

            try await server.store.pool.write { db in try db.execute(sql: "DROP TRIGGER broken") }
            let retried = try await server.ingest(Batch.body([Batch.event()]), key: app.ingestKey)
            #expect(retried.status == 200)
            #expect(try await server.storedCount(app) == 1)
        }
    }

    /// The fuzz test the collector must survive: valid bodies with bytes flipped, dropped or
    /// inserted, and with hostile tokens spliced in — numbers of any length, sign and
    /// exponent, and brackets nested far past the limit.
    @Test(arguments: TestDatabase.all) func mutatedBodiesNeverCrashTheServerAndLoseNothing(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let before = try await server.ingest(Batch.body((0..<5).map { _ in Batch.event() }), key: app.ingestKey)
            #expect(before.json["accepted"] as? Int == 5)
            var random = SplitMix64(seed: 7)
            let valid = Array(Self.sandwich(#"{"amount": 12.5, "note": "lunch"}"#))
            for round in 0..<300 {
                var bytes = valid
                for _ in 0..<(1 + round % 4) {
                    let index = Int(random.next() % UInt64(bytes.count))
                    switch random.next() % 5 {
                    case 0: bytes[index] = UInt8(truncatingIfNeeded: random.next())
                    case 1: bytes.remove(at: index)
                    case 2: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: index)
                    default: bytes.insert(contentsOf: Self.hostileToken(&random).utf8, at: index)
                    }
                }
                let status = try await server.ingest(Data(bytes), key: app.ingestKey).status
                #expect(status == 200 || status == 400, "round \(round): \(status)")
            }
            let after = try await server.ingest(Batch.body([Batch.event()]), key: app.ingestKey)
            #expect(after.status == 200)
            #expect(try await server.storedCount(app) >= 6)  // nothing accepted earlier is lost
        }
    }

    /// A number or a nesting at the limits, as an attacker would write it.
    static func hostileToken(_ random: inout SplitMix64) -> String {
        let digits = String((0..<Int(random.next() % 40 + 1)).map { _ in Character(String(random.next() % 10)) })
        switch random.next() % 8 {
        case 0: return digits
        case 1: return "-" + digits
        case 2: return digits + "e" + String(Int(random.next() % 800) - 400)
        case 3: return "-9223372036854775808"
        case 4: return "." + digits
        case 5: return digits + "."
        case 6: return String(repeating: "[", count: Int(random.next() % 100_000))
        default:
            let depth = Int(random.next() % 100_000)
            return String(repeating: "[", count: depth) + digits + String(repeating: "]", count: depth)
        }
    }

    /// PostHog's SDKs put the key in the body, so a wrong key is found only after the body is
    /// inflated and parsed. Each wrong key spends the client's budget; once it is spent, the
    /// client is refused before its body is read (a body that would be a 400 gets the 429),
    /// on every ingest route, while other clients are served.
    @Test func wrongKeysSpendABudgetAfterWhichBodiesAreNotRead() async throws {
        var configuration = ServerSettings()
        configuration.trustedProxies = try TrustedProxies(parsing: "127.0.0.1")
        configuration.wrongKeyLimit.eventsPerSecond = 0.001  // none comes back while the test runs, however slowly
        try await LiveServer.with(configuration: configuration) { server in
            let app = try await server.makeApp()
            let attacker = ["X-Forwarded-For": "203.0.113.66", "Content-Type": "application/json"]
            func capture(key: String) -> Data {
                Data(#"{"api_key": "\#(key)", "batch": [{"event": "e", "distinct_id": "u", "properties": {}}]}"#.utf8)
            }
            for _ in 0..<20 {
                #expect(try await server.request("/batch/", method: "POST", headers: attacker, body: capture(key: "ik_wrong")).status == 401)
            }
            let notGzip = attacker.merging(["Content-Encoding": "gzip"]) { $1 }
            #expect(try await server.request("/batch/", method: "POST", headers: notGzip, body: Data("not gzip".utf8)).status == 429)
            #expect(try await server.request("/v1/batch", method: "POST", headers: attacker, body: Data("{".utf8)).status == 429)
            let tally = attacker.merging(["X-App-Key": app.ingestKey]) { $1 }
            #expect(try await server.request("/v1/events", method: "POST", headers: tally, body: Data("{".utf8)).status == 429)
            let other = ["X-Forwarded-For": "198.51.100.3", "Content-Type": "application/json"]
            #expect(try await server.request("/batch/", method: "POST", headers: other, body: capture(key: app.ingestKey)).status == 200)
        }
    }
}

extension HostileInputTests {
    /// Read routes take dates and zones from the query: the ends of the calendar, days that do
    /// not exist, huge or odd strings. Each answer is a 200 or a 400, never a failure.
    @Test(arguments: TestDatabase.all) func metricsQueriesAtTheLimitsAnswer200Or400(database: TestDatabase) async throws {
        try await LiveServer.with(database: database) { server in
            let app = try await server.makeApp()
            let long = String(repeating: "9", count: 10_000)
            let queries = [
                "/v1/metrics?date=0000-01-01", "/v1/metrics?date=9999-12-31", "/v1/metrics?date=0000-02-29",
                "/v1/metrics?date=2026-02-30", "/v1/metrics?date=\(long)", "/v1/metrics?date=-001-01-01",
                "/v1/metrics?date=2026-01-01&tz=\(long)", "/v1/metrics?date=2026-01-01&tz=..%2F..%2Fetc%2Fpasswd",
                "/v1/metrics?date=0001-01-01&tz=Asia/Kathmandu", "/v1/metrics?date=9999-12-31&tz=Pacific/Kiritimati",
                "/v1/metrics/range?from=0000-01-01&to=9999-12-31", "/v1/metrics/range?from=9999-12-31&to=0000-01-01",
                "/v1/metrics/range?from=9999-01-01&to=9999-12-31&tz=Etc/GMT-14", "/v1/metrics/range?from=0000-01-01&to=0000-12-31",
                "/v1/metrics/range?from=2026-01-01", "/v1/metrics?date=%FF%FE",
                "/v1/retention?from=0000-01-01&to=0000-12-31&period=week", "/v1/retention?from=9999-01-01&to=9999-12-31&period=week",
                "/v1/retention?from=0000-01-01&to=9999-12-31", "/v1/retention?from=2026-01-01&to=2026-12-31&period=\(long)",
                "/v1/retention?from=9999-12-31&to=9999-12-31&tz=Pacific/Kiritimati&period=week",
            ]
            for query in queries {
                let status = try await server.metrics(query, token: app.readToken).status
                #expect(status == 200 || status == 400, "\(query.prefix(80)): \(status)")
            }
            #expect(try await server.request("/healthz").status == 200)
        }
    }
}

extension EventStore {
    /// The SQLite database behind the store, for tests that break it.
    var pool: DatabasePool { (backend as! SQLiteBackend).pool }
}

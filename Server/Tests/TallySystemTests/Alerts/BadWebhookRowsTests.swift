import Foundation
import GRDB
import TallyStoreTesting
import Testing

@testable import TallyStore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `tally serve` over a database holding every bad alert rule and outbox row the issue and the
/// alert fuzzer (Fuzz/Sources/AlertFuzzer) found: written straight into the tables, as an
/// older version, a hand edit or a restored backup may have left them. The collector stays up
/// through a restart, gives up each bad delivery with its reason, and evaluates no bad rule.
@Suite("Bad webhook rows", .serialized, .systemTests)
struct BadWebhookRowsTests {
    /// Webhook URLs no POST can be made to.
    static let badURLs = [
        "http://8.8.8.8:0/hook", "http://8.8.8.8:65536/hook", "http://8.8.8.8:99999/hook", "http://8.8.8.8:-1/hook",
        "http://8.8.8.8:\(String(repeating: "9", count: 40))/hook", "http:///hook", "ftp://example.com/hook", "not a url ::", "",
        "https://example.com/" + String(repeating: "a", count: 3_000),
    ]

    @Test func theCollectorStaysUpAndGivesUpEveryBadRow() async throws {
        let database = try await TestDatabase.sqlite.makeDatabase()
        defer { TestDatabase.sqlite.removeDatabase(database) }
        let store = try await EventStore(database: database)
        let app = try await store.apps.create(name: "Broken").app.id
        let now = Date().unixMilliseconds
        try await (store.backend as! SQLiteBackend).pool.write { db in
            let rows =
                Self.badURLs.map { (url: $0, state: 0, attempts: Int64(0)) } + [
                    (url: "https://example.com/hook", state: 7, attempts: 0), (url: "http://8.8.8.8:99999/hook", state: 0, attempts: .max),
                    (url: "http://8.8.8.8:99999/hook", state: -1, attempts: .min),
                ]
            for (index, row) in rows.enumerated() {
                try db.execute(
                    sql: """
                        INSERT INTO webhook_delivery (app_id, rule, delivery_id, url, body, signature, created_at, next_attempt_at, state, attempts)
                        VALUES (?, ?, ?, ?, X'7B7D', 'sha256=00', ?, ?, ?, ?)
                        """,
                    arguments: [app.rawValue, "row \(index)", "delivery \(index)", row.url, now, now, row.state, row.attempts])
            }
            for (index, url) in Self.badURLs.enumerated() {
                // Each would fire at the first evaluation: the app's DAU is above -1.
                try db.execute(
                    sql:
                        "INSERT INTO alert_rule (app_id, name, metric, condition, webhook, secret, created_at) VALUES (?, ?, 'dau', 'above -1', ?, 's', 0)",
                    arguments: [app.rawValue, "rule \(index)", url])
            }
        }
        let count = Self.badURLs.count + 3
        let collector = try await Collector(database: database)
        for round in 0..<2 {
            // Given up within the collector's first passes over the outbox, which run every second.
            let deadline = ContinuousClock.now + .seconds(30)
            var deliveries = try await store.alerts.deliveries(app: app, limit: 100)
            while deliveries.contains(where: { $0.state != .gaveUp }) || deliveries.count < count, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
                deliveries = try await store.alerts.deliveries(app: app, limit: 100)
            }
            #expect(collector.isRunning, "round \(round)")
            #expect(deliveries.count == count && deliveries.allSatisfy { $0.state == .gaveUp && $0.lastError?.isEmpty == false })
            #expect(try await store.alerts.evaluations(app: app).isEmpty)
            let (_, response) = try await URLSession.shared.data(from: collector.url.appending(path: "healthz"))
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            await collector.kill()
            if round == 0 { try await collector.start() }
        }
    }
}

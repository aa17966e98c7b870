import Foundation
import GRDB
import PostgresNIO
import TallyEvent
import TallyStoreTesting
import Testing

@testable import TallyStore

/// The outbox: an evaluation that fires queues its POST once, however many evaluators record
/// it; claims keep deliveries apart; the pending rows stay bounded.
@Suite struct WebhookOutboxTests {
    static let noon = try! Date("2026-03-02T12:00:00Z", strategy: Date.ISO8601FormatStyle())

    static func rule(_ name: String = "many taps", condition: AlertCondition = .above(-1)) throws -> AlertRule {
        try AlertRule(name: name, metric: .event("tap"), condition: condition, webhook: "http://127.0.0.1:9/hook", secret: "s3cret")
    }

    /// A claimed delivery is kept from other claims for the lease, then claimed again (a
    /// collector that died mid-attempt), and a finished one never.
    @Test(arguments: TestDatabase.all)
    func claimsLeaseDeliveries(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Claims").app
        let evaluation = AlertEvaluation(
            rule: "r", at: Self.noon, day: "2026-03-02", endsDay: false, metric: "dau", condition: "above 0", value: 3, previous: nil, fired: true)
        #expect(try await store.alerts.record(evaluation, of: try Self.rule("r"), app: app, now: Self.noon))
        #expect(try await !store.alerts.record(evaluation, of: try Self.rule("r"), app: app, now: Self.noon))
        let claimed = try await store.alerts.claimDueDeliveries(now: Self.noon, lease: 60, limit: 10)
        #expect(claimed.count == 1)
        #expect(try await store.alerts.claimDueDeliveries(now: Self.noon.addingTimeInterval(59), lease: 60, limit: 10).isEmpty)
        let again = try await store.alerts.claimDueDeliveries(now: Self.noon.addingTimeInterval(60), lease: 60, limit: 10)
        #expect(again.map(\.id) == claimed.map(\.id))
        try await store.alerts.finishAttempt(again[0], state: .delivered, nextAttempt: Self.noon, error: nil)
        #expect(try await store.alerts.claimDueDeliveries(now: Self.noon.addingTimeInterval(3_600), lease: 60, limit: 10).isEmpty)
        let stored = try await store.alerts.deliveries(app: app.id)
        #expect(stored.map(\.state) == [.delivered] && stored[0].attempts == 1)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(stored[0].body)) as? [String: Any])
        #expect((body["text"] as? String)?.contains("\"r\"") == true && body["value"] as? Double == 3)
        #expect(stored[0].signature == WebhookSignature.header(body: stored[0].body, secret: "s3cret"))
    }

    /// However many rules fire, the pending deliveries stay at the bound: the oldest are
    /// dropped (and recorded as such), the newest kept.
    @Test(arguments: TestDatabase.all)
    func theOutboxIsBounded(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Bounded").app
        for round in 0..<60 {
            let evaluation = AlertEvaluation(
                rule: "r\(round)", at: Self.noon, day: "2026-03-02", endsDay: false, metric: "dau", condition: "above 0", value: 1,
                previous: nil, fired: true)
            let draft = DeliveryDraft(
                rule: "r\(round)", deliveryID: UUID().uuidString, url: "http://127.0.0.1:9/", body: [123, 125], signature: "sha256=00",
                createdAt: Self.noon.unixMilliseconds)
            #expect(try await store.backend.record(evaluation, app: app.id, delivery: draft, maximumPending: 5))
        }
        let deliveries = try await store.alerts.deliveries(app: app.id, limit: 100)
        #expect(deliveries.filter { $0.state == .pending }.map(\.rule) == (55..<60).reversed().map { "r\($0)" })
        #expect(deliveries.filter { $0.state == .dropped }.count == 55)
        try await store.alerts.prune(now: Self.noon.addingTimeInterval(AlertStore.alertRetention + 1))
        #expect(try await store.alerts.deliveries(app: app.id, limit: 100).count == 5)
        #expect(try await store.alerts.evaluations(app: app.id).isEmpty)
    }

    /// Stored rules read back as saved, are replaced by name, bounded per app, and deleted.
    @Test(arguments: TestDatabase.all)
    func storedRulesRoundTrip(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Rules").app
        let rule = try AlertRule(
            name: " Funnel ", metric: .funnel(["open", FunnelStep("screen_view", [.is("screen", "home")])]), condition: .change(percent: 12.5),
            webhook: "https://hooks.example.com/a?b=c", secret: AlertRule.generateSecret())
        try await store.alerts.save(rule, app: app.id)
        #expect(try await store.alerts.rules(app: app.id) == [rule])
        #expect(rule.name == "Funnel" && rule.secret.hasPrefix("whs_"))
        var changed = rule
        changed.condition = .below(3)
        try await store.alerts.save(changed, app: app.id)
        #expect(try await store.alerts.rules(app: app.id) == [changed])
        for index in 1..<AlertRule.maximumPerApp { try await store.alerts.save(try Self.rule("r\(index)"), app: app.id) }
        await #expect(throws: TallyStoreError.tooManyAlertRules(app.id)) { try await store.alerts.save(try Self.rule("one more"), app: app.id) }
        #expect(try await store.alerts.delete(app: app.id, name: "Funnel"))
        #expect(try await !store.alerts.delete(app: app.id, name: "Funnel"))
        await #expect(throws: TallyStoreError.unknownApp(AppID(rawValue: 99))) {
            try await store.alerts.save(try Self.rule(), app: AppID(rawValue: 99))
        }
    }

    /// A webhook URL is checked whole where it is written: one the HTTP client could not
    /// connect to, or would trap on (a port out of range), is refused.
    @Test func webhookURLsAreCheckedWhole() throws {
        let refused = [
            "http://203.0.113.9:0/hook", "http://203.0.113.9:65536/hook", "http://203.0.113.9:99999/hook", "http://203.0.113.9:-1/hook",
            "http://203.0.113.9:\(String(repeating: "9", count: 40))/hook", "http:///hook", "http://:80/hook", "ftp://example.com/hook",
            "example.com/hook", "http://user:pw@example.com/", "http://exa mple.com/", "", "::::",
            "https://example.com/" + String(repeating: "a", count: 3_000),
        ]
        for text in refused {
            #expect(throws: TallyStoreError.self, "\(text.prefix(60))") { try AlertRule.webhookURL(text) }
        }
        let accepted = [
            "http://example.com:1/hook", "https://example.com:65535/hook", "https://hooks.slack.com/services/T/B/x", "http://[2001:db8::1]:8080/",
        ]
        for text in accepted {
            #expect(try AlertRule.webhookURL(text).absoluteString == text)
        }
    }

    /// Rows the store did not write as they are do not stay in the outbox forever: a claim
    /// takes those whose URL does not parse (the deliverer gives them up), and gives up those
    /// in a state it does not know, with the reason.
    @Test(arguments: TestDatabase.all)
    func rowsTheStoreDidNotWriteAreClaimedOrGivenUp(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Broken").app
        let urls = ["not a url ::", "", "http://203.0.113.9:99999/hook", "https://example.com/hook"]
        for (index, url) in urls.enumerated() { try await Self.queue(in: store, app: app.id, rule: "r\(index)", url: url) }
        let unknown = "UPDATE webhook_delivery SET state = 7 WHERE rule = 'r3'"
        switch database {
        case .sqlite: try await store.pool.write { db in try db.execute(sql: unknown) }
        case .postgres: try await store.postgres.execute(PostgresQuery(unsafeSQL: unknown))
        }
        let claimed = try await store.alerts.claimDueDeliveries(now: Self.noon, lease: 60, limit: 10)
        #expect(claimed.map(\.url) == Array(urls.prefix(3)))
        let given = try await store.alerts.deliveries(app: app.id).filter { $0.rule == "r3" }
        #expect(given.map(\.state) == [.gaveUp] && given.first?.lastError == "the delivery's state was not valid")
    }

    /// A claim takes at most `perApp` deliveries of each app, oldest first, and none of the
    /// apps excluded (those with deliveries in flight): one app's backlog cannot fill it.
    @Test(arguments: TestDatabase.all)
    func claimsTakeAFewOfEachApp(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        var apps: [AppID] = []
        for (name, count) in [("Busy", 10), ("Some", 3), ("Few", 2)] {
            let app = try await store.apps.create(name: name).app.id
            for index in 0..<count { try await Self.queue(in: store, app: app, rule: "\(name) \(index)", url: "https://example.com/hook") }
            apps.append(app)
        }
        let claimed = try await store.alerts.claimDueDeliveries(now: Self.noon, lease: 60, limit: 8, perApp: 3)
        #expect(claimed.map(\.rule) == ["Busy 0", "Busy 1", "Busy 2", "Some 0", "Some 1", "Some 2", "Few 0", "Few 1"])
        let next = try await store.alerts.claimDueDeliveries(now: Self.noon, lease: 60, limit: 8, perApp: 3, excluding: [apps[0]])
        #expect(next.isEmpty)
        let busy = try await store.alerts.claimDueDeliveries(now: Self.noon, lease: 60, limit: 8, perApp: 3, excluding: [apps[1]])
        #expect(busy.map(\.rule) == ["Busy 3", "Busy 4", "Busy 5"])
    }

    /// Queues a delivery of `rule` for `app` to `url`, written as given, at noon.
    static func queue(in store: EventStore, app: AppID, rule: String, url: String) async throws {
        let evaluation = AlertEvaluation(
            rule: rule, at: noon, day: "2026-03-02", endsDay: false, metric: "dau", condition: "above 0", value: 1, previous: nil, fired: true)
        let draft = DeliveryDraft(
            rule: rule, deliveryID: UUID().uuidString, url: url, body: [123, 125], signature: "sha256=00", createdAt: noon.unixMilliseconds)
        #expect(try await store.backend.record(evaluation, app: app, delivery: draft, maximumPending: 100))
    }
}

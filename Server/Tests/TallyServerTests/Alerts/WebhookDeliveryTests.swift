import Crypto
import Foundation
import Logging
import TallyServer
import TallyStore
import TallyStoreTesting
import Testing

/// Webhook POSTs over real sockets to a local receiver: signed, Slack-compatible, retried on
/// the backoff schedule, given up after an hour, resumed after a restart.
@Suite struct WebhookDeliveryTests {
    static let start = try! Date("2026-03-02T12:00:00Z", strategy: Date.ISO8601FormatStyle())
    /// A logger for the failures the tests cause on purpose.
    static let quiet = {
        var logger = Logger(label: "tally.webhooks")
        logger.logLevel = .critical
        return logger
    }()

    /// The transport of these tests, whose receiver is on loopback.
    static let loopback = HTTPWebhookTransport(allowsPrivateAddresses: true)

    /// HMAC-SHA256 by its definition (RFC 2104) over SHA-256 alone, so the check does not
    /// share the code that signed.
    static func hmac(_ message: [UInt8], key: [UInt8]) -> String {
        var block = key.count > 64 ? Array(SHA256.hash(data: key)) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let inner = Array(SHA256.hash(data: block.map { $0 ^ 0x36 } + message))
        let outer = SHA256.hash(data: block.map { $0 ^ 0x5c } + inner)
        return "sha256=" + outer.map { String(format: "%02x", $0) }.joined()
    }

    /// Records a firing of a rule POSTing to `url` at `start`; returns the app.
    static func fire(_ store: EventStore, url: String, secret: String = "the rule's secret") async throws -> App {
        let app = try await store.apps.create(name: "Hooks")
        let rule = try AlertRule(name: "Few bills", metric: .event("bill_created"), condition: .below(10), webhook: url, secret: secret)
        let evaluation = AlertEvaluation(
            rule: rule.name, at: start, day: "2026-03-02", endsDay: true, metric: "event:bill_created", condition: "below 10", value: 3,
            previous: nil, fired: true)
        #expect(try await store.alerts.record(evaluation, of: rule, app: app.app, now: start))
        return app.app
    }

    /// Fails three times (500), then 200: attempts at 0, 10, 30 and 70 s, not a second before
    /// each; every attempt the same signed body and delivery id.
    @Test(arguments: TestDatabase.all)
    func failuresAreRetriedWithBackoffThenDelivered(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        try await WebhookReceiver.with(answer: { $0 < 3 ? .internalServerError : .ok }) { receiver in
            let app = try await Self.fire(store, url: receiver.url())
            let clock = ManualClock(Self.start)
            let deliverer = WebhookDeliverer(store: store, transport: Self.loopback, clock: clock, logger: Self.quiet)
            for (due, attempts) in [(0.0, 1), (10, 2), (30, 3), (70, 4)] {
                if due > 0 {
                    clock.advance(to: Self.start.addingTimeInterval(due - 0.5))
                    #expect(await deliverer.deliverDue() == 0, "before \(due) s")
                }
                clock.advance(to: Self.start.addingTimeInterval(due))
                #expect(await deliverer.deliverDue() == 1, "at \(due) s")
                #expect(await receiver.log.received.count == attempts)
            }
            clock.advance(to: Self.start.addingTimeInterval(7_200))
            #expect(await deliverer.deliverDue() == 0)
            let delivery = try #require(try await store.alerts.deliveries(app: app.id).first)
            #expect(delivery.state == .delivered && delivery.attempts == 4 && delivery.lastError == nil)

            let received = await receiver.log.received
            #expect(Set(received.map(\.body)).count == 1)
            #expect(Set(received.compactMap { $0.headers["x-tally-delivery"] }) == [delivery.deliveryID])
            for request in received {
                #expect(request.headers["x-tally-signature"] == Self.hmac(request.body, key: Array("the rule's secret".utf8)))
                #expect(request.headers["content-type"] == "application/json")
                #expect(request.headers["x-tally-timestamp"] == String(Int(Self.start.timeIntervalSince1970)))
            }
            let body = try #require(try JSONSerialization.jsonObject(with: Data(received[0].body)) as? [String: Any])
            #expect(body["text"] as? String == "Tally alert \"Few bills\" (Hooks): event:bill_created was 3 on 2026-03-02: below 10.")
            #expect(body["rule"] as? String == "Few bills" && body["value"] as? Double == 3 && body["day"] as? String == "2026-03-02")
            #expect(body["app_id"] as? Int == Int(app.id.rawValue) && body["previous"] is NSNull)
        }
    }

    /// A receiver that always fails gets 11 attempts, the last at 3,030 s, then the delivery
    /// is given up with its error recorded.
    @Test(arguments: TestDatabase.all)
    func aDeliveryIsGivenUpAfterAnHour(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        try await WebhookReceiver.with(answer: { _ in .serviceUnavailable }) { receiver in
            let app = try await Self.fire(store, url: receiver.url())
            let clock = ManualClock(Self.start)
            let deliverer = WebhookDeliverer(store: store, transport: Self.loopback, clock: clock, logger: Self.quiet)
            var attemptedAt: [Int] = []
            for second in stride(from: 0, through: 7_200, by: 10) {
                clock.advance(to: Self.start.addingTimeInterval(Double(second)))
                if await deliverer.deliverDue() > 0 { attemptedAt.append(second) }
            }
            #expect(attemptedAt == [0, 10, 30, 70, 150, 310, 630, 1_230, 1_830, 2_430, 3_030])
            let delivery = try #require(try await store.alerts.deliveries(app: app.id).first)
            #expect(delivery.state == .gaveUp && delivery.attempts == 11 && delivery.lastError == "the webhook answered 503")
        }
    }

    @Test func theBackoffDoublesUpToTenMinutes() {
        #expect((1...9).map { WebhookDeliverer.retryDelay(afterAttempt: $0) } == [10, 20, 40, 80, 160, 320, 600, 600, 600])
        #expect(WebhookDeliverer.retryDelay(afterAttempt: Int.max) == 600)
    }

    /// A collector that stopped mid-attempt (its claim never finished) and one that stopped
    /// before sending: a new store on the same database sends both once the claim's lease ends.
    @Test(arguments: TestDatabase.all)
    func aRestartResumesPendingDeliveries(database: TestDatabase) async throws {
        let url = try await database.makeDatabase()
        defer { database.removeDatabase(url) }
        try await WebhookReceiver.with { receiver in
            do {
                let before = try await EventStore(database: url)
                _ = try await Self.fire(before, url: receiver.url())
                _ = try await before.alerts.claimDueDeliveries(now: Self.start, lease: 60, limit: 1)
                _ = try await Self.fire(before, url: receiver.url())
            }
            let after = try await EventStore(database: url)
            let clock = ManualClock(Self.start.addingTimeInterval(1))
            let deliverer = WebhookDeliverer(store: after, transport: Self.loopback, clock: clock, logger: Self.quiet)
            #expect(await deliverer.deliverDue() == 1)
            clock.advance(to: Self.start.addingTimeInterval(60))
            #expect(await deliverer.deliverDue() == 1)
            #expect(await receiver.log.received.count == 2)
            #expect(await deliverer.deliverDue() == 0)
        }
    }

    /// Deliverers on two stores of one PostgreSQL database (on SQLite, two on one store), each
    /// passing over the outbox again and again at once, send each of 40 deliveries once.
    @Test(arguments: TestDatabase.all)
    func concurrentDeliverersSendEachDeliveryOnce(database: TestDatabase) async throws {
        let url = try await database.makeDatabase()
        defer { database.removeDatabase(url) }
        let one = try await EventStore(database: url)
        let two = database == .postgres ? try await EventStore(database: url) : one
        try await WebhookReceiver.with { receiver in
            for _ in 0..<40 { _ = try await Self.fire(one, url: receiver.url()) }
            let clock = ManualClock(Self.start)
            let deliverers = [one, two, one, two].map { WebhookDeliverer(store: $0, transport: Self.loopback, clock: clock, logger: Self.quiet) }
            await withTaskGroup(of: Void.self) { group in
                for deliverer in deliverers {
                    group.addTask { for _ in 0..<12 { await deliverer.deliverDue() } }
                }
            }
            let received = await receiver.log.received
            #expect(received.count == 40)
            #expect(Set(received.compactMap { $0.headers["x-tally-delivery"] }).count == 40)
        }
    }

    /// A redirect is not followed, and an answer that does not come is a timeout: both fail.
    @Test func redirectsAndSilenceAreFailures() async throws {
        try await WebhookReceiver.with { receiver in
            let status = try await Self.loopback.post(to: URL(string: receiver.url("/redirect"))!, body: [], headers: [])
            #expect(status == 302)
            #expect(await receiver.log.received.isEmpty)
            // The receiver answers after 5 s.
            let transport = HTTPWebhookTransport(timeout: .seconds(1), allowsPrivateAddresses: true)
            await #expect(throws: (any Error).self) {
                try await transport.post(to: URL(string: receiver.url("/hang"))!, body: [], headers: [])
            }
            await #expect(throws: (any Error).self) {
                try await transport.post(to: URL(string: "http://127.0.0.1:1/")!, body: [], headers: [])
            }
        }
    }

    /// An editor's rule cannot make the server POST to the services beside it: a webhook on a
    /// loopback, private or link-local address, written as an address in any notation or as
    /// a name resolving to one, is refused before any connection, unless the server allows
    /// private webhooks.
    @Test func nonPublicAddressesAreRefusedUnlessAllowed() async throws {
        try await WebhookReceiver.with { receiver in
            let port = receiver.port
            let refused = [
                receiver.url(), "http://localhost:\(port)/hook", "http://[::1]:\(port)/hook", "http://[::ffff:127.0.0.1]:\(port)/hook",
                "http://2130706433:\(port)/hook", "http://0x7f.1:\(port)/hook", "http://10.0.0.1/hook", "https://192.168.1.1/hook",
                "http://169.254.169.254/latest/meta-data", "http://[fd00::1]/hook", "http://0.0.0.0:\(port)/hook",
            ]
            for url in refused {
                await #expect(throws: WebhookFailure.self, "\(url)") {
                    try await HTTPWebhookTransport().post(to: URL(string: url)!, body: [], headers: [])
                }
            }
            #expect(await receiver.log.received.isEmpty)
            let status = try await Self.loopback.post(to: URL(string: receiver.url())!, body: [], headers: [])
            #expect(status == 200)
            #expect(await receiver.log.received.count == 1)
        }
    }
}

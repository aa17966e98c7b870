import Foundation
import Locking
import Logging
import TallyHTTP
import TallyServer
import TallyStoreTesting
import Testing

@testable import TallyStore

/// What no outbox row or rule can make the deliverer do: trap, stay pending forever, reach
/// the server's own addresses, show members the server's network, or let one app's slow
/// receiver hold back the others.
@Suite struct WebhookGuardTests {
    static let start = WebhookDeliveryTests.start
    static let quiet = WebhookDeliveryTests.quiet

    /// URLs an outbox row may hold that no attempt can be made to.
    static let undeliverable = [
        "http://203.0.113.9:0/hook", "http://203.0.113.9:65536/hook", "http://203.0.113.9:99999/hook", "http://203.0.113.9:-1/hook",
        "http://203.0.113.9:\(String(repeating: "9", count: 40))/hook", "http:///hook", "ftp://example.com/hook", "not a url ::", "",
        "https://example.com/" + String(repeating: "a", count: 3_000),
    ]

    /// Queues a delivery of `rule` for `app` to `url`, written as given, at ``start``.
    static func queue(in store: EventStore, app: AppID, rule: String, url: String) async throws {
        let evaluation = AlertEvaluation(
            rule: rule, at: start, day: "2026-03-02", endsDay: false, metric: "dau", condition: "above 0", value: 1, previous: nil,
            fired: true)
        let draft = DeliveryDraft(
            rule: rule, deliveryID: UUID().uuidString, url: url, body: [123, 125], signature: "sha256=00", createdAt: start.unixMilliseconds)
        #expect(try await store.backend.record(evaluation, app: app, delivery: draft, maximumPending: 1_000))
    }

    /// Passes of `deliverer` until one finds nothing due.
    static func deliverAll(_ deliverer: WebhookDeliverer) async {
        while await deliverer.deliverDue() > 0 {}
    }

    /// Waits until `condition` holds; the test's time limit ends a wait that would not.
    static func waitUntil(_ condition: () async throws -> Bool) async throws {
        while try await !condition() { try await Task.sleep(for: .milliseconds(10)) }
    }

    /// A row whose URL no attempt can be made to (port out of range, no host, not http, not a
    /// URL, empty, too long) is given up at its first pass with the reason, the transport never
    /// called; the real transport refuses such a URL before any networking, rather than trap.
    @Test(arguments: TestDatabase.all)
    func undeliverableRowsAreGivenUpAtOnce(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Broken").app
        for (index, url) in Self.undeliverable.enumerated() { try await Self.queue(in: store, app: app.id, rule: "r\(index)", url: url) }
        let transport = FakeWebhookTransport()
        await Self.deliverAll(WebhookDeliverer(store: store, transport: transport, clock: ManualClock(Self.start), logger: Self.quiet))
        let deliveries = try await store.alerts.deliveries(app: app.id, limit: 100)
        #expect(deliveries.count == Self.undeliverable.count)
        for delivery in deliveries {
            #expect(delivery.state == .gaveUp && delivery.attempts == 1, "\(delivery.url.prefix(60))")
            #expect(delivery.lastError == "the webhook's URL is not valid", "\(delivery.url.prefix(60))")
        }
        #expect(transport.record.withLock { $0.delivered.isEmpty })
        for url in Self.undeliverable.compactMap(URL.init(string:)) {
            let failure = await #expect(throws: WebhookFailure.self, "\(url.absoluteString.prefix(60))") {
                try await HTTPWebhookTransport(allowsPrivateAddresses: true).post(to: url, body: [], headers: [])
            }
            #expect(failure?.isFinal == true)
        }
    }

    /// A webhook on one of the server's own addresses is refused like a private one, before
    /// any connection: a service bound to every interface is no less beside the server.
    @Test func theServersOwnAddressesAreRefused() async throws {
        #expect(try HTTPWebhookTransport.interfaceAddresses().contains(try #require(IPAddress("127.0.0.1"))))
        let own = Set(["8.8.8.8", "2606:4700:4700::1111"].compactMap(IPAddress.init))
        let transport = HTTPWebhookTransport(localAddresses: { own })
        for url in ["http://8.8.8.8:8080/hook", "https://[2606:4700:4700::1111]/hook"] {
            let failure = await #expect(throws: WebhookFailure.self, "\(url)") {
                try await transport.post(to: try #require(URL(string: url)), body: [], headers: [])
            }
            #expect(failure?.reason == "the webhook's address is not allowed or not found", "\(url)")
            #expect(failure?.detail.contains("the server's own addresses") == true, "\(url)")
        }
        struct Unreadable: Error {}
        let blind = HTTPWebhookTransport(localAddresses: { throw Unreadable() })
        await #expect(throws: WebhookFailure.self) { try await blind.post(to: try #require(URL(string: "http://8.8.4.4/")), body: [], headers: []) }
    }

    /// With an allow-list, a webhook goes to the hosts named and their subdomains only; the
    /// check needs no networking.
    @Test func theAllowListKeepsWebhooksToTheHostsNamed() throws {
        let transport = HTTPWebhookTransport(allowedHosts: ["Example.com", "hooks.slack.com"])
        for (url, port) in [("https://example.com/a", 443), ("http://HOOKS.example.com:8080/a", 8080), ("https://hooks.slack.com/services/x", 443)] {
            #expect(try transport.target(of: try #require(URL(string: url))).port == port, "\(url)")
        }
        for url in ["https://example.org/", "https://badexample.com/", "https://slack.com/", "https://example.com.evil.org/"] {
            let failure = #expect(throws: WebhookFailure.self, "\(url)") { try transport.target(of: try #require(URL(string: url))) }
            #expect(failure?.reason == "the webhook's address is not allowed or not found", "\(url)")
        }
        #expect(try HTTPWebhookTransport().target(of: try #require(URL(string: "https://example.org/"))).host == "example.org")
    }

    /// Members see a failed delivery's reason in general words; the addresses and errors
    /// behind it go to the log only.
    @Test(arguments: TestDatabase.all)
    func membersSeeGeneralReasonsAndTheLogTheDetail(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Probe").app
        let urls = ["http://localhost:9/hook", "http://[::1]:9/hook", "http://10.0.0.1/hook", "http://0x7f.1:22/"]
        for (index, url) in urls.enumerated() { try await Self.queue(in: store, app: app.id, rule: "r\(index)", url: url) }
        let log = LogCapture()
        let logger = Logger(label: "tally.webhooks") { _ in log }
        await Self.deliverAll(WebhookDeliverer(store: store, transport: HTTPWebhookTransport(), clock: ManualClock(Self.start), logger: logger))
        let deliveries = try await store.alerts.deliveries(app: app.id)
        #expect(deliveries.count == urls.count)
        #expect(deliveries.allSatisfy { $0.lastError == "the webhook's address is not allowed or not found" })
        let logged = log.messages.withLock { $0.joined(separator: "\n") }
        for address in ["127.0.0.1", "::1", "10.0.0.1"] { #expect(logged.contains(" is at \(address), not a public address"), "\(address)") }
    }

    /// One app's receiver that does not answer holds that app's slots only: every other app's
    /// deliveries are sent meanwhile, never more than ``WebhookDeliverer/maximumInFlightPerApp``
    /// of an app nor ``WebhookDeliverer/maximumInFlight`` in all are in flight, and each is
    /// sent once. Before each delivery ran on its own, the passes waited for the slow app's
    /// POSTs, and the time limit ended the test.
    @Test(.timeLimit(.minutes(5)), arguments: TestDatabase.all)
    func aSlowReceiverHoldsBackItsOwnAppOnly(database: TestDatabase) async throws {
        let store = try await database.makeStore()
        let slow = try await store.apps.create(name: "Slow").app.id
        for index in 0..<12 { try await Self.queue(in: store, app: slow, rule: "slow \(index)", url: "https://slow.example.com/hook") }
        var others: [AppID] = []
        for app in 0..<8 {
            let id = try await store.apps.create(name: "App \(app)").app.id
            for index in 0..<5 { try await Self.queue(in: store, app: id, rule: "r\(index)", url: "https://app\(app).example.com/hook") }
            others.append(id)
        }
        let transport = FakeWebhookTransport(held: ["slow.example.com"])
        let deliverer = WebhookDeliverer(store: store, transport: transport, clock: ManualClock(Self.start), logger: Self.quiet)
        let running = Task { try await deliverer.run() }
        func delivered(_ app: AppID) async throws -> Int { try await store.alerts.deliveries(app: app).filter { $0.state == .delivered }.count }
        for app in others { try await Self.waitUntil { try await delivered(app) == 5 } }
        #expect(try await delivered(slow) == 0)
        transport.release()
        try await Self.waitUntil { try await delivered(slow) == 12 }
        running.cancel()
        let record = transport.record.withLock { $0 }
        #expect(record.mostInFlight["slow.example.com"] == WebhookDeliverer.maximumInFlightPerApp)
        #expect(record.mostInFlight.values.allSatisfy { $0 <= WebhookDeliverer.maximumInFlightPerApp })
        #expect(record.mostInFlightInAll <= WebhookDeliverer.maximumInFlight)
        #expect(record.delivered.count == 52 && Set(record.delivered).count == 52)
    }
}

/// A log handler that keeps the messages.
final class LogCapture: LogHandler {
    let messages = Locked<[String]>([])
    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }
    var logLevel: Logger.Level {
        get { .trace }
        set {}
    }
    var metadataProvider: Logger.MetadataProvider? {
        get { nil }
        set {}
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }

    func log(event: LogEvent) {
        messages.withLock { $0.append(event.message.description) }
    }
}

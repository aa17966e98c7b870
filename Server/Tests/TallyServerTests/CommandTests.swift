import Foundation
import TallyDashboard
import TallyEvent
import TallyServerTesting
import TallyStore
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `tally` command, run as a child process the way its users run it.
@Suite("tally command")
final class CommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-cli-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    var db: String { folder.appendingPathComponent("tally.sqlite").path }

    @Test func appCreatePrintsTheKeysAsJSON() async throws {
        let output = try await run(["app", "create", "Bills", "--tz", "Asia/Shanghai", "--db", db])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(json["app"] as? String == "Bills")
        #expect(json["app_id"] as? Int == 1)
        #expect((json["ingest_key"] as? String)?.hasPrefix("ik_") == true)
        #expect((json["read_token"] as? String)?.hasPrefix("rt_") == true)
        #expect((json["write_token"] as? String)?.hasPrefix("wt_") == true)
    }

    @Test func appCreateTakesTheAcceptedEventAge() async throws {
        try await run(["app", "create", "Bills", "--max-event-age-days", "90", "--db", db])
        let store = try EventStore(path: db)
        #expect(try await store.apps.all().first?.acceptedEventAge == 90 * 86_400)
    }

    @Test func appCreateRefusesAnUnknownTimeZone() async throws {
        await #expect(throws: CommandFailure.self) { try await run(["app", "create", "Bills", "--tz", "Mars/Olympus", "--db", db]) }
    }

    /// `tally app create --owner` makes a user the new app's owner; an unknown owner creates no app.
    @Test func appCreateGrantsTheOwnerRole() async throws {
        try await run(["user", "create", "ana", "--db", db])
        try await run(["app", "create", "Bills", "--owner", "ana", "--db", db])
        let store = try EventStore(path: db)
        let ana = try #require(try await store.accounts.account(named: "ana")).user
        let app = try #require(try await store.apps.all().first)
        #expect(try await store.members.list(app: app.id) == [AppMember(user: ana, role: .owner)])
        await #expect(throws: CommandFailure.self) { try await run(["app", "create", "Shop", "--owner", "nobody", "--db", db]) }
        #expect(try await store.apps.all().count == 1)
    }

    /// `tally user grant` and `revoke` take the app by id or name, say what changed, and
    /// refuse unknown users, apps and roles, and removing an app's last owner.
    @Test func userGrantAndRevokeChangeRolesAndSaySo() async throws {
        try await run(["user", "create", "ana", "--db", db])
        try await run(["user", "create", "bo", "--db", db])
        try await run(["app", "create", "Bills", "--owner", "ana", "--db", db])
        #expect(try await run(["user", "grant", "bo", "Bills", "viewer", "--db", db]) == "bo in app 1 (Bills): granted viewer\n")
        #expect(try await run(["user", "grant", "bo", "1", "editor", "--db", db]) == "bo in app 1 (Bills): changed from viewer to editor\n")
        let store = try EventStore(path: db)
        let bo = try #require(try await store.accounts.account(named: "bo")).user
        #expect(try await store.members.role(of: bo.id, in: AppID(rawValue: 1)) == .editor)
        #expect(try await run(["user", "revoke", "bo", "Bills", "--db", db]) == "bo in app 1 (Bills): editor revoked\n")
        #expect(try await store.members.role(of: bo.id, in: AppID(rawValue: 1)) == nil)
        for refused in [
            ["user", "grant", "nobody", "Bills", "viewer"], ["user", "grant", "bo", "Shop", "viewer"], ["user", "grant", "bo", "Bills", "admin"],
            ["user", "revoke", "ana", "Bills"], ["user", "grant", "ana", "1", "viewer"],
        ] {
            await #expect(throws: CommandFailure.self, "\(refused)") { try await run(refused + ["--db", db]) }
        }
        #expect(try await store.members.list(app: AppID(rawValue: 1)).map(\.role) == [.owner])
    }

    @Test func appUpdateSetsTheSegmentPropertiesAndSaysTheyRebuildTheIndex() async throws {
        try await run(["app", "create", "Bills", "--db", db])
        let id = try #require(try await EventStore(path: db).apps.all().first?.id.rawValue)
        func stored() async throws -> SegmentProperties? {
            try await EventStore(path: db).apps.app(id: AppID(rawValue: id))?.segmentProperties
        }
        let output = try await run([
            "app", "update", "\(id)", "--segment-event-property", "source", "--segment-event-property", "tier",
            "--segment-user-property", "plan", "--db", db,
        ])
        #expect(output.contains("segment event properties [source, tier], user properties [plan]"))
        #expect(try await stored() == SegmentProperties(event: ["source", "tier"], user: ["plan"]))
        // Each list given replaces its own; the other is kept, as are the other settings.
        try await run(["app", "update", "\(id)", "--segment-user-property", "role", "--tz", "Asia/Shanghai", "--db", db])
        #expect(try await stored() == SegmentProperties(event: ["source", "tier"], user: ["role"]))
        try await run(["app", "update", "\(id)", "--clear-segment-properties", "--segment-user-property", "plan", "--db", db])
        #expect(try await stored() == SegmentProperties(user: ["plan"]))
        try await run(["app", "update", "\(id)", "--clear-segment-properties", "--db", db])
        #expect(try await stored() == SegmentProperties())
        #expect(try await EventStore(path: db).apps.all().first?.timeZone == "Asia/Shanghai")
        // A built-in dimension, or more than four event properties, is refused.
        await #expect(throws: CommandFailure.self) { try await run(["app", "update", "\(id)", "--segment-event-property", "platform", "--db", db]) }
        let five = ["a", "b", "c", "d", "e"].flatMap { ["--segment-event-property", $0] }
        await #expect(throws: CommandFailure.self) { try await run(["app", "update", "\(id)"] + five + ["--db", db]) }
        #expect(try await stored() == SegmentProperties())
        let help = try await run(["app", "update", "--help"]).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("--segment-event-property <name>"))
        #expect(help.contains("--segment-user-property <name>"))
        #expect(help.contains("rebuilds the segment index from the stored raw events"))
    }

    /// `tally app update --purchase-event` names the event revenue counts, says so, keeps the
    /// other settings, and refuses a name no event may have.
    @Test func appUpdateSetsThePurchaseEvent() async throws {
        try await run(["app", "create", "Bills", "--db", db])
        let id = try #require(try await EventStore(path: db).apps.all().first?.id.rawValue)
        #expect(try await EventStore(path: db).apps.all().first?.purchaseEvent == "purchase")
        let output = try await run(["app", "update", "\(id)", "--purchase-event", "subscription_paid", "--db", db])
        #expect(output.contains("purchase event subscription_paid"))
        #expect(try await EventStore(path: db).apps.all().first?.purchaseEvent == "subscription_paid")
        try await run(["app", "update", "\(id)", "--tz", "Asia/Shanghai", "--db", db])
        #expect(try await EventStore(path: db).apps.all().first?.purchaseEvent == "subscription_paid")
        await #expect(throws: CommandFailure.self) { try await run(["app", "update", "\(id)", "--purchase-event", "", "--db", db]) }
        #expect(try await EventStore(path: db).apps.all().first?.purchaseEvent == "subscription_paid")
        let help = try await run(["app", "update", "--help"]).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("--purchase-event <name>"))
    }

    /// `app update --raw-retention-days` sets, shows and takes back the retention, refuses
    /// one that does not outlast the accepted age by a day, and `export` says on standard error
    /// what it no longer has.
    @Test func appUpdateSetsTheRawRetentionAndExportSaysWhatIsPruned() async throws {
        try await run(["app", "create", "Bills", "--max-event-age-days", "1", "--db", db])
        let store = try EventStore(path: db)
        let id = try #require(try await store.apps.all().first?.id)
        #expect(try await run(["app", "update", "\(id.rawValue)", "--raw-retention-days", "2", "--db", db]).contains("raw events kept 2 days,"))
        await #expect(throws: CommandFailure.self) { try await run(["app", "update", "\(id.rawValue)", "--raw-retention-days", "1", "--db", db]) }
        await #expect(throws: CommandFailure.self) { try await run(["app", "update", "\(id.rawValue)", "--raw-retention-days", "soon", "--db", db]) }
        let now = Date()
        try await store.events.insert(
            [now.addingTimeInterval(-5 * 86_400), now].map { Event(id: UUID(), name: "open", timestamp: $0, userID: "u") }, app: id)
        #expect(try await store.dataRetention.prune(now: now).deletedEvents == 1)
        let export = try await runReadingErrors(["export", "--from", "2000-01-01", "--to", "2100-01-01", "--db", db])
        #expect(export.output.split(separator: "\n").count == 1)
        #expect(export.errors.contains("app \(id.rawValue): raw events before "))
        #expect(export.errors.contains("are no longer kept"))
        let forever = try await run(["app", "update", "\(id.rawValue)", "--raw-retention-days", "forever", "--db", db])
        #expect(forever.contains("raw events kept forever (kept since "))
        #expect(try await store.apps.app(id: id)?.rawRetentionDays == nil)
    }

    @Test func serveDemoServesTheDemoAppsMetricsAndExportWritesNDJSON() async throws {
        let server = try await ChildProcess("tally", ["serve", "--demo", "--demo-users", "12", "--port", "0", "--db", db])

        // Lines: "tally listening on <url> ...", "demo app created ...", the keys, "try: ...".
        _ = try await server.firstLine { $0.contains("\"read_token\"") ? $0 : nil }
        let text = server.standardOutput
        let base = try #require(text.firstMatch(of: /listening on (http:\/\/[0-9.:]+)/)?.1)
        let token = try #require(text.firstMatch(of: /"read_token":"([^"]+)"/)?.1)
        let sent = try #require(text.firstMatch(of: /filled: (\d+) events/)?.1).flatMap { Int($0) }
        #expect((sent ?? 0) > 0)
        #expect(text.contains("(0 dropped)"))

        var request = URLRequest(
            url: URL(string: "\(base)/v1/metrics/range?from=\(utcDay(Date().addingTimeInterval(-40 * 86_400)))&to=\(utcDay(Date()))")!)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (body, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let range = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(((range["dau"] as? [Int]) ?? []).reduce(0, +) > 0)
        #expect(range["tz"] as? String == "Asia/Shanghai")

        // The demo's paying users buy their plan's months: its dashboard shows revenue.
        request.url = URL(string: "\(base)/v1/revenue?from=\(utcDay(Date().addingTimeInterval(-40 * 86_400)))&to=\(utcDay(Date()))")!
        let (revenueBody, revenueResponse) = try await URLSession.shared.data(for: request)
        #expect((revenueResponse as? HTTPURLResponse)?.statusCode == 200)
        let revenue = try #require(try JSONSerialization.jsonObject(with: revenueBody) as? [String: Any])
        #expect((revenue["paying_users"] as? Int ?? 0) > 0)
        #expect((revenue["currencies"] as? [String: Any])?.isEmpty == false)

        server.send(SIGTERM)
        #expect(try await server.exitStatus(within: .seconds(30)) == 0)

        let lines = try await run(["export", "--from", "2000-01-01", "--to", "2100-01-01", "--db", db])
            .split(separator: "\n")
        #expect(lines.count == sent)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(Set(first.keys).isSuperset(of: ["app", "id", "name", "timestamp", "device_timestamp", "user_id", "properties"]))

        let csv = try await run(["export", "--from", "2000-01-01", "--to", "2100-01-01", "--format", "csv", "--db", db])
        #expect(csv.hasPrefix(ExportFormat.csvHeader))
        #expect(csv.filter { $0 == "\n" }.count == (sent ?? 0) + 1)  // the demo's fields hold no line breaks
    }

    /// `tally user create` prints a generated password once; only its bcrypt hash is stored,
    /// and it signs in.
    @Test func userCreatePrintsAGeneratedPasswordThatSignsIn() async throws {
        let output = try await run(["user", "create", "ana", "--db", db])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: String])
        #expect(json["user"] == "ana")
        let password = try #require(json["password"])
        #expect(password.count >= DashboardAccess.minimumPasswordLength)
        let store = try EventStore(path: db)
        let stored = try #require(try await store.accounts.account(named: "ana"))
        #expect(stored.passwordHash.hasPrefix("$2") && !stored.passwordHash.contains(password))
        let signedIn = try await DashboardAccess(store: store).signIn(name: "ana", password: password, from: "test")
        #expect(signedIn.session.user.name == "ana")
        await #expect(throws: CommandFailure.self, "a taken name is refused") { try await run(["user", "create", "ana", "--db", db]) }
    }

    @Test func aSecondServerOnATakenPortSaysWhyAndExits() async throws {
        let first = try await ChildProcess("tally", ["serve", "--port", "0", "--db", db])
        let port = try await first.listeningPort()
        let second = try await ChildProcess("tally", ["serve", "--port", "\(port)", "--db", folder.appendingPathComponent("other.sqlite").path])
        let status = try await second.exitStatus(within: .seconds(30))
        #expect(status != nil && status != 0, "a server that cannot listen must exit with an error")
        #expect(second.standardError.contains("127.0.0.1:\(port)"))
        #expect(second.standardError.contains("Address already in use"))
        first.send(SIGTERM)
        #expect(try await first.exitStatus(within: .seconds(30)) == 0)
    }

    @Test func sigtermEndsTheServerWhileTheDemoIsStillSending() async throws {
        // 2,000 users take seconds to fill: 200 were filled before a loaded machine sent the signal.
        let server = try await ChildProcess("tally", ["serve", "--demo", "--demo-users", "2000", "--port", "0", "--db", db])
        _ = try await server.listeningPort()
        server.send(SIGTERM)
        #expect(try await server.exitStatus(within: .seconds(30)) == 0, "\(server.standardError)")
        #expect(!server.standardOutput.contains("filled"), "the demo was meant to be still running")
    }

    @Test func serveTakesItsOptionsFromTheEnvironmentAndLogsEachRequestWithItsID() async throws {
        let server = try await ChildProcess("tally", ["serve"], environment: ["TALLY_PORT": "0", "TALLY_DB": db, "TALLY_LOG_LEVEL": "info"])
        let port = try await server.listeningPort()
        #expect(server.standardOutput.contains("(database \(db))"))
        let (_, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/healthz")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let logged = try await Self.waitFor { server.standardError.contains("/healthz") }
        #expect(logged && server.standardError.contains("hb.request.id="), "\(server.standardError)")
        server.send(SIGTERM)
        #expect(try await server.exitStatus(within: .seconds(30)) == 0)
    }

    /// Behind an HTTPS proxy on the same host, as deployed: cookies are `Secure` and
    /// `__Host-` prefixed, and `/metrics` knows a forwarded request from one of the host's own.
    @Test func behindATrustedHTTPSProxyCookiesAreSecureAndForwardedClientsAreNotLocal() async throws {
        let server = try await ChildProcess(
            "tally",
            ["serve", "--port", "0", "--db", db],
            environment: ["TALLY_TRUSTED_PROXIES": "127.0.0.1", "TALLY_PUBLIC_URL": "https://tally.example.com"])
        let base = "http://127.0.0.1:\(try await server.listeningPort())"
        // A session of its own: the shared one would keep the cookie for every test's 127.0.0.1.
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        let session = URLSession(configuration: configuration)
        let (_, login) = try await session.data(from: URL(string: base + "/login")!)
        let cookie = (login as? HTTPURLResponse)?.value(forHTTPHeaderField: "Set-Cookie") ?? ""
        #expect(cookie.hasPrefix("__Host-tally_csrf=") && cookie.contains("Secure"), "\(cookie)")
        var forwarded = URLRequest(url: URL(string: base + "/metrics")!)
        forwarded.setValue("203.0.113.7", forHTTPHeaderField: "X-Forwarded-For")
        #expect((try await session.data(for: forwarded).1 as? HTTPURLResponse)?.statusCode == 401)
        #expect((try await session.data(from: URL(string: base + "/metrics")!).1 as? HTTPURLResponse)?.statusCode == 200)
        server.send(SIGTERM)
        #expect(try await server.exitStatus(within: .seconds(30)) == 0)
    }

    @Test func anOptionOnTheCommandLineBeatsItsVariable() async throws {
        let server = try await ChildProcess(
            "tally",
            ["serve", "--db", db, "--port", "0", "--log-level", "warning"],
            environment: ["TALLY_DB": folder.appendingPathComponent("missing/other.sqlite").path, "TALLY_PORT": "1", "TALLY_LOG_LEVEL": "loud"])
        _ = try await server.listeningPort()
        #expect(server.standardOutput.contains("(database \(db))"))
        server.send(SIGTERM)
        #expect(try await server.exitStatus(within: .seconds(30)) == 0)
    }

    @Test(arguments: [
        ("TALLY_PORT", "eighty"), ("TALLY_DEMO", "maybe"), ("TALLY_DEMO_USERS", "-"), ("TALLY_LOG_LEVEL", "loud"),
        ("TALLY_TRUSTED_PROXIES", "proxy.internal"), ("TALLY_FORWARDED_HEADER", "via"), ("TALLY_SECURE_COOKIES", "maybe"),
        ("TALLY_ALLOW_PRIVATE_WEBHOOKS", "sometimes"),
        ("TALLY_MAX_CONNECTIONS_PER_ADDRESS", "many"), ("TALLY_REQUEST_HEAD_TIMEOUT", "soon"),
    ])
    func aVariableThatDoesNotParseStopsServeNamingIt(variable: String, value: String) async throws {
        let server = try await ChildProcess("tally", ["serve", "--db", db], environment: [variable: value])
        let status = try await server.exitStatus(within: .seconds(30))
        #expect(status != nil && status != 0)
        #expect(server.standardError.contains(variable), "\(server.standardError)")
    }

    /// Waits up to 10 s for `condition`; returns whether it came true.
    static func waitFor(_ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    @Test func aDatabaseThatCannotBeOpenedIsNamedByItsPath() async throws {
        let path = folder.appendingPathComponent("missing-folder/tally.sqlite").path
        let server = try await ChildProcess("tally", ["serve", "--port", "0", "--db", path])
        let status = try await server.exitStatus(within: .seconds(30))
        #expect(status != nil && status != 0)
        #expect(server.standardError.contains(path))
    }

    /// A layout file with a mistake stops `serve` before it listens, naming the line and field.
    @Test func aBadDashboardConfigIsRefusedWithItsLineAndField() async throws {
        let file = folder.appendingPathComponent("dashboard.yaml")
        try """
        sections:
          - id: bills
            title: Bills
            metrics:
              - {key: bills, label: Bills, cuont: bill_created}
        """.write(to: file, atomically: true, encoding: .utf8)
        let server = try await ChildProcess("tally", ["serve", "--port", "0", "--db", db, "--dashboard-config", file.path])
        let status = try await server.exitStatus(within: .seconds(30))
        #expect(status != nil && status != 0)
        #expect(server.standardError.contains("line 5"))
        #expect(server.standardError.contains("sections[0].metrics[0]"))
        #expect(!server.standardOutput.contains("listening"))
    }

    /// An alert of the dashboard file whose webhook is on a non-public address stops `serve`,
    /// naming it, unless private webhooks are allowed.
    @Test func aDashboardFileAlertOnAPrivateAddressStopsServeUnlessAllowed() async throws {
        let file = folder.appendingPathComponent("dashboard.yaml")
        try """
        sections:
          - {id: bills, title: Bills, metrics: [{key: bills, label: Bills, count: bill_created}]}
        alerts:
          - {name: Few bills, metric: dau, condition: below 1, webhook: "http://10.0.0.7/hook", secret: s}
        """.write(to: file, atomically: true, encoding: .utf8)
        let refused = try await ChildProcess("tally", ["serve", "--port", "0", "--db", db, "--dashboard-config", file.path])
        let status = try await refused.exitStatus(within: .seconds(30))
        #expect(status != nil && status != 0)
        #expect(refused.standardError.contains("Few bills") && refused.standardError.contains("10.0.0.7"), "\(refused.standardError)")
        let allowed = try await ChildProcess(
            "tally", ["serve", "--port", "0", "--db", db, "--dashboard-config", file.path, "--allow-private-webhooks"])
        _ = try await allowed.listeningPort()
        allowed.send(SIGTERM)
        #expect(try await allowed.exitStatus(within: .seconds(30)) == 0)
    }

    /// With `--webhook-hosts` (or `TALLY_WEBHOOK_HOSTS`), a dashboard file alert to another
    /// host stops `tally serve`, naming the rule; one to a host named, or its subdomain, starts.
    @Test func aDashboardFileAlertOffTheWebhookHostsStopsServe() async throws {
        let file = folder.appendingPathComponent("dashboard.yaml")
        try """
        sections:
          - {id: bills, title: Bills, metrics: [{key: bills, label: Bills, count: bill_created}]}
        alerts:
          - {name: Few bills, metric: dau, condition: below 1, webhook: "https://hooks.example.com/hook", secret: s}
        """.write(to: file, atomically: true, encoding: .utf8)
        let arguments = ["serve", "--port", "0", "--db", db, "--dashboard-config", file.path]
        let refused = try await ChildProcess("tally", arguments + ["--webhook-hosts", "example.org, chat.example.com"])
        let status = try await refused.exitStatus(within: .seconds(30))
        #expect(status != nil && status != 0)
        #expect(refused.standardError.contains("Few bills") && refused.standardError.contains("not allowed"), "\(refused.standardError)")
        let allowed = try await ChildProcess("tally", arguments, environment: ["TALLY_WEBHOOK_HOSTS": "example.org,Example.com"])
        _ = try await allowed.listeningPort()
        allowed.send(SIGTERM)
        #expect(try await allowed.exitStatus(within: .seconds(30)) == 0)
    }

    /// A good layout file is what the dashboard shows.
    @Test func aDashboardConfigIsServed() async throws {
        let file = folder.appendingPathComponent("dashboard.json")
        try #"{"sections": [{"id": "orders", "title": "Orders", "metrics": [{"key": "orders", "label": "Orders", "count": "order_placed"}]}]}"#
            .write(to: file, atomically: true, encoding: .utf8)
        let store = try EventStore(path: db)
        let shop = try await store.apps.create(name: "Shop")
        let ana = try await DashboardAccess(store: store, passwordCost: 4).createUser(name: "ana", password: "correct horse battery")
        try await store.members.setRole(.owner, of: ana.id, in: shop.app.id)
        let server = try await ChildProcess("tally", ["serve", "--port", "0", "--db", db, "--dashboard-config", file.path])
        let port = try await server.listeningPort()
        defer { server.send(SIGTERM) }
        let token = try await DashboardAccess(store: store).signIn(name: "ana", password: "correct horse battery", from: "test").token
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/apps/1")!)
        request.setValue("tally_session=\(token)", forHTTPHeaderField: "Cookie")
        let (body, _) = try await URLSession.shared.data(for: request)
        let html = String(decoding: body, as: UTF8.self)
        #expect(html.matches(of: /data-section="([^"]+)"/).map { String($0.1) } == ["orders"])
    }

    /// Runs `tally` with `arguments` and returns its standard output.
    @discardableResult
    func run(_ arguments: [String]) async throws -> String {
        try await runReadingErrors(arguments).output
    }

    /// Runs `tally` with `arguments` and returns its standard output and standard error.
    func runReadingErrors(_ arguments: [String]) async throws -> (output: String, errors: String) {
        let outcome = try await ChildProcess.run("tally", arguments)
        guard outcome.status == 0 else { throw CommandFailure(status: outcome.status, output: outcome.text) }
        return (outcome.text, outcome.errors)
    }
}

/// A `tally` command that failed: its exit status and standard output.
struct CommandFailure: Error {
    let status: Int32
    let output: String
}

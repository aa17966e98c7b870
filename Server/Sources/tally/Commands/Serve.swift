public import ArgumentParser
import Foundation
import Logging
import Metrics
import NIOCore
import TallyApp
import TallyDashboard
public import TallyHTTP
import TallyServer
import TallyStore

#if os(Linux)
    import CMalloc
#endif

/// `tally serve`: runs the collector until interrupted.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the collector, its metrics API and the live dashboard.",
        discussion: """
            The dashboard is at the server's root; sign in with a user of `tally user create`. \
            With --demo, also creates a demo app and sends it 60 days of events from a \
            bookkeeping app through the real SDK and HTTP path, creates the dashboard user \
            `demo`, then prints the app's keys, the dashboard's address and the login.
            """
    )

    /// Each option's environment variable and default: an option on the command line wins,
    /// then the variable, then the default.
    enum Setting {
        static let host = EnvironmentSetting(variable: "TALLY_HOST", defaultValue: "127.0.0.1")
        static let port = EnvironmentSetting(variable: "TALLY_PORT", defaultValue: 8080)
        static let demo = EnvironmentSetting(variable: "TALLY_DEMO", defaultValue: false)
        static let demoUsers = EnvironmentSetting(variable: "TALLY_DEMO_USERS", defaultValue: DemoData.defaultUsers)
        static let dashboardConfig = EnvironmentSetting(variable: "TALLY_DASHBOARD_CONFIG", defaultValue: "")
        static let metricsToken = EnvironmentSetting(variable: "TALLY_METRICS_TOKEN", defaultValue: "")
        static let logLevel = EnvironmentSetting(variable: "TALLY_LOG_LEVEL", defaultValue: Logger.Level.warning.rawValue)
        static let publicURL = EnvironmentSetting(variable: "TALLY_PUBLIC_URL", defaultValue: "")
        static let secureCookies = EnvironmentSetting(variable: "TALLY_SECURE_COOKIES", defaultValue: false)
        static let trustedProxies = EnvironmentSetting(variable: "TALLY_TRUSTED_PROXIES", defaultValue: "")
        static let forwardedHeader = EnvironmentSetting(variable: "TALLY_FORWARDED_HEADER", defaultValue: TrustedProxies.Header.xForwardedFor)
        static let connectionsPerAddress = EnvironmentSetting(
            variable: "TALLY_MAX_CONNECTIONS_PER_ADDRESS", defaultValue: ServerSettings().maximumConnectionsPerAddress)
        static let requestHeadTimeout = EnvironmentSetting(
            variable: "TALLY_REQUEST_HEAD_TIMEOUT", defaultValue: ServerSettings().requestHeadTimeout)
        static let allowPrivateWebhooks = EnvironmentSetting(variable: "TALLY_ALLOW_PRIVATE_WEBHOOKS", defaultValue: false)
        static let concurrentReads = EnvironmentSetting(variable: "TALLY_CONCURRENT_READS", defaultValue: ServerSettings().reads.running)
        static let readTimeout = EnvironmentSetting(variable: "TALLY_READ_TIMEOUT", defaultValue: 10.0)
        static let webhookHosts = EnvironmentSetting(variable: "TALLY_WEBHOOK_HOSTS", defaultValue: "")
    }

    @OptionGroup var database: DatabaseOptions

    @Option(help: Setting.host.help("The address to listen on."))
    var host: String?

    @Option(help: Setting.port.help("The port to listen on."))
    var port: Int?

    @Flag(inversion: .prefixedNo, help: Setting.demo.help("Create a demo app and fill it with 60 days of events."))
    var demo: Bool?

    @Option(help: Setting.demoUsers.help("How many users the demo simulates."))
    var demoUsers: Int?

    @Option(help: Setting.dashboardConfig.help("A dashboard layout file (YAML or JSON) instead of the default sections."))
    var dashboardConfig: String?

    @Option(help: Setting.metricsToken.help("A bearer token of at least 16 characters that opens GET /metrics to clients off this host."))
    var metricsToken: String?

    @Option(
        help: Setting.logLevel.help(
            "The least severe messages logged: trace, debug, info (every request, with its id), notice, warning, error or critical."))
    var logLevel: String?

    @Option(help: Setting.publicURL.help("The address users open the dashboard at, behind a proxy; https:// turns on --secure-cookies."))
    var publicURL: String?

    @Flag(
        inversion: .prefixedNo,
        help: Setting.secureCookies.help(
            "Mark the dashboard's cookies Secure, with the __Host- prefix, for a dashboard served over HTTPS (default: on when --public-url is https)."
        ))
    var secureCookies: Bool?

    @Option(
        help: Setting.trustedProxies.help(
            "Comma-separated addresses or CIDR ranges of reverse proxies whose forwarding header names the client (none by default)."))
    var trustedProxies: String?

    @Option(help: Setting.forwardedHeader.help("The header the trusted proxies write: x-forwarded-for or forwarded."))
    var forwardedHeader: TrustedProxies.Header?

    @Option(help: Setting.connectionsPerAddress.help("The most connections one client address may hold open (trusted proxies excepted)."))
    var maxConnectionsPerAddress: Int?

    @Option(help: Setting.requestHeadTimeout.help("Seconds a client has to send a request head before the server answers 408 and closes."))
    var requestHeadTimeout: Double?

    @Flag(
        inversion: .prefixedNo,
        help: Setting.allowPrivateWebhooks.help(
            "Let alert webhooks go to loopback, private and link-local addresses, such as a chat server on the local network."))
    var allowPrivateWebhooks: Bool?

    @Option(
        help: Setting.webhookHosts.help(
            "Comma-separated host names alert webhooks may go to, each with its subdomains (default: any public host)."))
    var webhookHosts: String?

    @Option(
        help: Setting.concurrentReads.help(
            "How many costly reads (funnels, paths, retention, breakdowns, timelines, dashboard reports) run at once; more wait their turn (default: half the cores)."
        ))
    var concurrentReads: Int?

    @Option(help: Setting.readTimeout.help("Seconds a costly read may take, waiting included, before it is cancelled and answered 503."))
    var readTimeout: Double?

    func run() async throws {
        #if os(Linux)
            // Blocks of a MiB or more always come from mmap and go back to the system when
            // freed. glibc otherwise raises its threshold to the largest block freed, and the
            // buffers that rewrite a live bucket's log (see BucketLog), which grow all through
            // the bucket, came from its heap and stayed: in the sustained-ingest system test the
            // collector's resident memory rose from 145 to 186 MiB over a minute, and stays at
            // 146-151 MiB with the threshold fixed.
            _ = mallopt(M_MMAP_THRESHOLD, 1 << 20)
        #endif
        let (host, port, demo, demoUsers) = try (
            Setting.host.value(host), Setting.port.value(port), Setting.demo.value(demo), Setting.demoUsers.value(demoUsers)
        )
        let (dashboardConfig, metricsToken) = try (Setting.dashboardConfig.value(dashboardConfig), Setting.metricsToken.value(metricsToken))
        let database = try database.location()
        let level = try Setting.logLevel.value(logLevel)
        guard let logLevel = Logger.Level(rawValue: level) else {
            throw ValidationError("unknown log level \(level.prefix(40)) (--log-level or \(Setting.logLevel.variable))")
        }
        MetricsSystem.bootstrapPrometheus()
        let termination = TerminationWatch()
        defer { termination.cancel() }
        let store = try await EventStore(database: database)
        var configuration = ServerSettings()
        configuration.host = host
        configuration.port = port
        configuration.metricsToken = metricsToken.isEmpty ? nil : metricsToken
        configuration.logLevel = logLevel
        do {
            configuration.trustedProxies = try TrustedProxies(
                parsing: Setting.trustedProxies.value(trustedProxies), header: Setting.forwardedHeader.value(forwardedHeader))
        } catch let error as ConfigurationError {
            throw ValidationError("--trusted-proxies (\(Setting.trustedProxies.variable)): \(error.value) is not an IP address or a CIDR range")
        }
        configuration.maximumConnectionsPerAddress = try Setting.connectionsPerAddress.value(maxConnectionsPerAddress)
        configuration.requestHeadTimeout = try Setting.requestHeadTimeout.value(requestHeadTimeout)
        configuration.allowsPrivateWebhooks = try Setting.allowPrivateWebhooks.value(allowPrivateWebhooks)
        configuration.reads.running = try Setting.concurrentReads.value(concurrentReads)
        let readSeconds = try Setting.readTimeout.value(readTimeout)
        guard readSeconds.isFinite, readSeconds > 0, readSeconds <= 3_600 else {
            throw ValidationError("--read-timeout (\(Setting.readTimeout.variable)) must be more than 0 and at most 3600 seconds")
        }
        configuration.reads.deadline = .milliseconds(Int64(readSeconds * 1_000))
        configuration.webhookHosts = try Setting.webhookHosts.value(webhookHosts).split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        if let host = configuration.webhookHosts.first(where: { $0.isEmpty || URLComponents(string: "http://\($0)/")?.host == nil }) {
            throw ValidationError("--webhook-hosts (\(Setting.webhookHosts.variable)): \(host.prefix(100)) is not a host name")
        }
        let publicURL = try Setting.publicURL.value(publicURL)
        guard publicURL.isEmpty || URL(string: publicURL)?.host != nil else {
            throw ValidationError("--public-url \(publicURL.prefix(100)) is not an absolute URL (\(Setting.publicURL.variable))")
        }
        let secure =
            try secureCookies ?? Setting.secureCookies.parse(ProcessInfo.processInfo.environment) ?? publicURL.lowercased().hasPrefix("https://")
        let layout = try dashboardConfig.isEmpty ? .default : DashboardLayout(contentsOfFile: dashboardConfig)
        if !configuration.allowsPrivateWebhooks,
            let (rule, host) = layout.alerts.entries.lazy.compactMap({ entry in
                IPAddress.nonPublicHost(of: entry.rule.webhook).map { (entry.rule.name, $0) }
            }).first
        {
            throw ValidationError(
                "the alert \(rule) of \(dashboardConfig) posts to \(host), not a public address (--allow-private-webhooks allows it)")
        }
        let transport = configuration.webhookTransport
        for entry in layout.alerts.entries {
            do {
                _ = try transport.target(of: entry.rule.webhook)
            } catch {
                throw ValidationError("the alert \(entry.rule.name) of \(dashboardConfig): \(error.reason) (\(error.detail))")
            }
        }
        let application = try await TallyApplication(store: store, settings: configuration, layout: layout, secureCookies: secure)
        let (ports, running) = AsyncStream.makeStream(of: Int.self)

        try await withThrowingTaskGroup(of: Part.self) { group in
            group.addTask {
                defer { running.finish() }
                try await application.build { running.yield($0) }.runService()
                return .server
            }
            var iterator = ports.makeAsyncIterator()
            guard let listeningPort = await iterator.next() else {
                // The server stopped before it listened; its error says why.
                do {
                    _ = try await group.next()
                } catch {
                    throw ListenError(host: host, port: port, error: error)
                }
                return
            }
            termination.serverIsListening()
            let shownHost = host == "0.0.0.0" ? "127.0.0.1" : host.contains(":") ? "[\(host)]" : host
            guard let base = URL(string: "http://\(shownHost):\(listeningPort)") else {
                throw ValidationError("--host \(host) cannot be written in a URL")
            }
            let dashboard = publicURL.isEmpty ? base.absoluteString + "/" : publicURL
            say("tally listening on \(base.absoluteString) (database \(database))")
            if demo {
                group.addTask {
                    let (app, report) = try await DemoData.fill(store: store, server: base, users: demoUsers)
                    say(report)
                    let login = try await DemoData.createUser(access: application.dashboard.access, store: store, owning: app)
                    say("dashboard: \(dashboard) (user \(DemoData.userName), \(login))")
                    return .demo
                }
            }
            // Serve until the server stops (SIGTERM, SIGINT), then stop the demo if it still runs.
            while let part = try await group.next(), part != .server {}
            group.cancelAll()
        }
    }

    /// The concurrent parts of `serve`.
    private enum Part {
        case server, demo
    }
}

/// The server could not listen: the address is taken or not this machine's.
struct ListenError: Error, CustomStringConvertible {
    let host: String
    let port: Int
    let error: any Error

    var description: String {
        let reason = (error as? IOError).map { String(cString: strerror($0.errnoCode)) } ?? "\(error)"
        return "cannot listen on \(host):\(port): \(reason)"
    }
}

// `public import ArgumentParser` above: a conformance of a public type must see its protocol publicly.
extension TrustedProxies.Header: ExpressibleByArgument {}

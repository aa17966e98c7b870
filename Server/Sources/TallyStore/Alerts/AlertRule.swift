public import Foundation

/// A rule that watches one metric of an app and POSTs to a webhook when its condition holds.
///
/// Rules come from two places: the dashboard file (`alerts:` of an app, see the dashboard's
/// configuration) and the `alert_rule` table (made in the dashboard, see
/// ``AlertStore/save(_:app:)``). A stored rule keeps its secret in the table: the
/// collector needs it in clear to sign each body (``WebhookSignature``).
public struct AlertRule: Hashable, Sendable {
    /// The rule's name, unique per app and source: 1 to ``maximumNameLength`` characters.
    public var name: String
    /// What it watches.
    public var metric: AlertMetric
    /// When it fires.
    public var condition: AlertCondition
    /// Where it POSTs: an `http` or `https` URL.
    public var webhook: URL
    /// The key of the HMAC-SHA256 signature of each body.
    public var secret: String

    /// The most rules an app stores.
    public static let maximumPerApp = 100
    /// The longest name.
    public static let maximumNameLength = 64
    /// The longest webhook URL, in bytes.
    public static let maximumURLLength = 2_048

    /// Creates a rule, checking its name and URL.
    ///
    /// - Throws: ``TallyStoreError/invalidAlertRule(_:)``.
    public init(name: String, metric: AlertMetric, condition: AlertCondition, webhook: String, secret: String) throws(TallyStoreError) {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...Self.maximumNameLength).contains(name.count), !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw .invalidAlertRule("a rule's name has 1 to \(Self.maximumNameLength) characters and no control character") }
        guard !secret.isEmpty, secret.utf8.count <= 256 else { throw .invalidAlertRule("a rule's secret has 1 to 256 bytes") }
        self.name = name
        self.metric = metric
        self.condition = condition
        self.webhook = try Self.webhookURL(webhook)
        self.secret = secret
    }

    /// `text` as a webhook URL: at most ``maximumURLLength`` bytes, absolute, `http` or
    /// `https`, with a host, no user or password, and a port from 1 to 65535 if it names one.
    /// The URL returned is the one its text parses to again, as the HTTP client reads it.
    /// Checked where a rule is written (dashboard, dashboard file) and again before each
    /// attempt at a delivery (``WebhookDelivery/url``), which may hold anything.
    ///
    /// - Throws: ``TallyStoreError/invalidAlertRule(_:)``.
    public static func webhookURL(_ text: String) throws(TallyStoreError) -> URL {
        func validPort(_ port: Int?) -> Bool { port.map { (1...65_535).contains($0) } ?? true }
        // The port as written: one too long for an integer parses as none, which the client
        // would read as the scheme's.
        func validWrittenPort(_ components: URLComponents) -> Bool {
            guard let range = components.rangeOfPort, let string = components.string else { return true }
            return Int(string[range]).map { (1...65_535).contains($0) } ?? false
        }
        guard text.utf8.count <= maximumURLLength, let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            components.host?.isEmpty == false, components.user == nil, components.password == nil, validPort(components.port),
            validWrittenPort(components),
            let written = components.url, written.absoluteString.utf8.count <= maximumURLLength,
            let url = URL(string: written.absoluteString), url.scheme?.lowercased() == scheme, url.host?.isEmpty == false,
            validPort(url.port)
        else {
            throw .invalidAlertRule("the webhook is not an http or https URL with a host, no credentials and a port from 1 to 65535")
        }
        return url
    }

    /// A fresh secret for a rule made in the dashboard: `whs_` and 256 random bits.
    public static func generateSecret() -> String {
        AccessKey.generate(prefix: "whs_")
    }
}

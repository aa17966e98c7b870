public import TallyStore

/// The alert rules of the dashboard file (its `alerts:` list), each for one app or every app.
///
/// ```yaml
/// alerts:
///   - {name: Few bills, app: 1, metric: "event:bill_created", condition: below 10, webhook: "https://hooks.slack.com/services/…", secret: "env:TALLY_BILLS_SECRET"}
///   - {name: DAU swing, metric: dau, condition: change 30%, webhook: "https://example.com/hook", secret: a-literal-secret}
/// ```
///
/// `app` is an app id; without it the rule applies to every app. `metric` and `condition` are
/// the text forms of ``AlertMetric`` and ``AlertCondition``; `funnel:SECTION` also names a
/// funnel section of the file, whose steps it takes. `secret` signs the bodies: `env:NAME`
/// reads the environment variable `NAME` when the file is read (so the file can be
/// committed without it), anything else is the secret itself.
public struct DashboardAlerts: Hashable, Sendable {
    /// One rule and the app it is for (`nil`: every app).
    public struct Entry: Hashable, Sendable {
        /// The app, or `nil` for every app.
        public var app: AppID?
        /// The rule.
        public var rule: AlertRule

        /// The rule `rule` for `app` (`nil`: every app).
        public init(app: AppID?, rule: AlertRule) {
            self.app = app
            self.rule = rule
        }
    }

    /// The rules, in the file's order.
    public var entries: [Entry]

    /// Rules of `entries`.
    public init(entries: [Entry] = []) {
        self.entries = entries
    }

    /// The rules that apply to `app`.
    public func rules(of app: AppID) -> [AlertRule] {
        entries.filter { $0.app == nil || $0.app == app.production }.map(\.rule)
    }
}

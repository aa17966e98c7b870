import TallyDashboard
import TallyStore
import Testing

/// The dashboard file's `alerts:` list: each rule for one app or every app, its secret from
/// the environment or literal, `funnel:SECTION` naming a funnel section of the file.
@Suite struct DashboardAlertsTests {
    static let sections = """
        sections:
          - {id: app, title: App, builtin: app}
          - {id: bill_funnel, title: Funnel, funnel: {steps: [login, bill_created]}}
        """

    @Test func rulesReadWithTheirAppsAndSecrets() throws {
        let yaml =
            Self.sections + """

                alerts:
                  - {name: Few bills, app: 2, metric: "event:bill_created", condition: below 10, webhook: "https://hooks.example.com/a", secret: "env:BILLS_SECRET"}
                  - {name: DAU swing, metric: dau, condition: change 30%, webhook: "http://10.0.0.1:8080/h", secret: literal}
                  - {name: Funnel, metric: "funnel:bill_funnel", condition: below 20, webhook: "https://example.com/", secret: s}
                """
        let layout = try DashboardLayout(yaml: yaml, environment: ["BILLS_SECRET": "from the environment"])
        let entries = layout.alerts.entries
        #expect(entries.map(\.rule.name) == ["Few bills", "DAU swing", "Funnel"])
        #expect(entries[0].app == AppID(rawValue: 2) && entries[0].rule.secret == "from the environment")
        #expect(entries[0].rule.condition == .below(10) && entries[0].rule.metric == .event("bill_created"))
        #expect(entries[1].app == nil && entries[1].rule.secret == "literal" && entries[1].rule.condition == .change(percent: 30))
        #expect(entries[2].rule.metric == .funnel(["login", "bill_created"]))
        #expect(layout.alerts.rules(of: AppID(rawValue: 2)).map(\.name) == ["Few bills", "DAU swing", "Funnel"])
        #expect(layout.alerts.rules(of: AppID(rawValue: 3)).map(\.name) == ["DAU swing", "Funnel"])
        #expect(layout.alerts.rules(of: AppID(rawValue: 2).debug).count == 3)
    }

    @Test(arguments: [
        ("{name: a, metric: dau, condition: above 1, webhook: 'https://e.com', secret: 'env:MISSING'}", "alerts[0].secret", "not set"),
        ("{name: a, metric: daily, condition: above 1, webhook: 'https://e.com', secret: s}", "alerts[0].metric", "unknown metric"),
        ("{name: a, metric: dau, condition: over 1, webhook: 'https://e.com', secret: s}", "alerts[0].condition", "condition"),
        ("{name: a, metric: dau, condition: above 1, webhook: 'ftp://e.com', secret: s}", "alerts[0]", "http or https"),
        ("{name: a, metric: dau, condition: above 1, webhook: 'https://e.com', secret: s, app: x}", "alerts[0].app", "app id"),
        ("{name: a, metric: dau, condition: above 1, webhook: 'https://e.com'}", "alerts[0].secret", "missing"),
        ("{name: a, metric: dau, condition: above 1, webhook: 'https://e.com', secret: s, when: daily}", "alerts[0].when", "unknown field"),
        ("{name: a, metric: 'funnel:app', condition: above 1, webhook: 'https://e.com', secret: s}", "alerts[0].metric", "2 to 10 steps"),
    ])
    func aBadRuleIsRefusedWithItsField(rule: String, field: String, message: String) {
        #expect {
            try DashboardLayout(yaml: Self.sections + "\nalerts:\n  - \(rule)\n", environment: [:])
        } throws: { error in
            guard let error = error as? DashboardLayoutError else { return false }
            return error.field == field && error.message.contains(message)
        }
    }

    @Test func aNameIsUsedOncePerApp() {
        let rule = "{name: a, metric: dau, condition: above 1, webhook: 'https://e.com', secret: s"
        #expect(throws: DashboardLayoutError.self) {
            try DashboardLayout(yaml: Self.sections + "\nalerts:\n  - \(rule)}\n  - \(rule), app: 1}\n", environment: [:])
        }
        #expect(throws: Never.self) {
            try DashboardLayout(yaml: Self.sections + "\nalerts:\n  - \(rule), app: 2}\n  - \(rule), app: 1}\n", environment: [:])
        }
    }
}

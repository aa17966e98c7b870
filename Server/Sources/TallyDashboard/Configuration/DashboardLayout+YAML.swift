public import Foundation
import TallyStore
import Yams

extension DashboardLayout {
    /// Reads the layout file at `path`: YAML, or JSON (which YAML reads too).
    ///
    /// - Throws: ``DashboardLayoutError`` naming the line and the field, or that the file
    ///   cannot be read.
    public init(contentsOfFile path: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(DashboardLayoutError) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw DashboardLayoutError(line: nil, field: "", message: "cannot read the file \(path)")
        }
        try self.init(yaml: text, environment: environment)
    }

    /// Reads a layout from YAML (or JSON, which YAML includes).
    ///
    /// ```yaml
    /// sections:
    ///   - id: bills
    ///     title: Bills
    ///     metrics:
    ///       - {key: bills, label: Bills, count: bill_created}
    ///       - {key: bills_per_user, label: Per user, per_user: bill_created}
    ///       - {key: record_time, label: Time to record, average: {event: bill_created, property: duration_s, unit: s}}
    ///       - {key: empty_note, label: Empty note, empty_share: {event: bill_created, property: note}}
    ///   - {id: app, title: App, builtin: app}
    ///   - {id: screens, title: Screens, builtin: screens, screen_names: {BillEditor: Bill editor}}
    ///   - {id: health, title: Data health, builtin: data_health, unreliable_share: 0.05}
    ///   - id: first_bill
    ///     title: First bill
    ///     funnel: {steps: [login, "screen_view[screen==BillEditor]", bill_created], window: 1d}
    /// ```
    ///
    /// A section has one of `metrics`, `builtin` (`app`, `versions`, `retention`, `revenue`, `screens`,
    /// `top_events`, `live_feed`, `data_health`) or `funnel`. A metric has one measure:
    /// `count`, `per_user` or `distinct_users` (an event name), or `average`, `empty_share` or
    /// `breakdown` (an event and a property). A funnel has 2 to 10 `steps`, each an event
    /// name or `NAME[CONDITIONS]` in the filter syntax (quote those in a flow list), and a
    /// `window`, a whole number of `s`, `m`, `h` or `d` up to 90 days (default `1d`).
    /// Identifiers and keys are unique; unknown fields are refused, so a misspelt one is
    /// found rather than ignored. An optional `alerts` list holds alert rules (see
    /// ``DashboardAlerts``); `env:NAME` secrets are read from `environment`.
    ///
    /// - Throws: ``DashboardLayoutError`` naming the line and the field.
    public init(yaml text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(DashboardLayoutError) {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw DashboardLayoutError(line: error.line, field: "", message: "not valid YAML or JSON: \(error)")
        } catch {
            throw DashboardLayoutError(line: nil, field: "", message: "not valid YAML or JSON: \(error)")
        }
        guard let root else { throw DashboardLayoutError(line: 1, field: "", message: "the file is empty") }
        var reader = LayoutReader(environment: environment)
        self = try reader.layout(root)
    }
}

extension YamlError {
    /// The line the error is on, when libYAML said.
    fileprivate var line: Int? {
        switch self {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): mark.line
        default: nil
        }
    }
}

/// Turns the YAML node tree into a ``DashboardLayout``, keeping the path to each field for
/// errors.
private struct LayoutReader {
    private var usedKeys: Set<String> = []
    /// Where `env:NAME` secrets are read.
    let environment: [String: String]

    init(environment: [String: String]) {
        self.environment = environment
    }

    static let builtins = ["app", "versions", "retention", "revenue", "screens", "top_events", "live_feed", "data_health"]

    /// The content of the built-in section `name`, with its options from `fields`.
    private static func builtin(_ name: String, _ fields: Fields) throws(DashboardLayoutError) -> DashboardLayout.Content? {
        switch name {
        case "app": return .app
        case "versions": return .versions
        case "top_events": return .topEvents
        case "live_feed": return .liveFeed
        case "retention": return .retention
        case "revenue": return .revenue
        case "screens":
            guard let names = fields.optional("screen_names") else { return .screens(names: [:]) }
            return .screens(names: try names.stringMap())
        case "data_health":
            var share = 0.05
            if let given = fields.optional("unreliable_share") { share = try given.number() }
            guard (0...1).contains(share) else {
                throw fields.error("unreliable_share", "must be a share from 0 to 1, such as 0.05")
            }
            return .dataHealth(unreliableShare: share)
        default: return nil
        }
    }

    mutating func layout(_ root: Node) throws(DashboardLayoutError) -> DashboardLayout {
        let fields = try Fields(root, path: "", allowed: ["sections", "alerts"])
        let list = try fields.required("sections").sequence()
        guard !list.isEmpty else { throw fields.error("sections", "a layout needs at least one section") }
        var sections: [DashboardLayout.Section] = []
        var ids: Set<String> = []
        for item in list {
            let section = try section(item)
            guard ids.insert(section.id).inserted else {
                throw item.error("id", "the section id '\(section.id)' is used twice")
            }
            sections.append(section)
        }
        var alerts = DashboardAlerts()
        for item in try fields.optional("alerts")?.sequence() ?? [] {
            let entry = try alert(item, sections: sections)
            guard !alerts.entries.contains(where: { $0.rule.name == entry.rule.name && ($0.app == nil || entry.app == nil || $0.app == entry.app) })
            else { throw item.error("name", "the alert '\(entry.rule.name)' is named twice for one app") }
            alerts.entries.append(entry)
        }
        return DashboardLayout(sections: sections, alerts: alerts)
    }

    /// One rule of `alerts`; `funnel:SECTION` takes the steps of the funnel section `SECTION`.
    private func alert(_ value: Value, sections: [DashboardLayout.Section]) throws(DashboardLayoutError) -> DashboardAlerts.Entry {
        let fields = try Fields(value, allowed: ["name", "app", "metric", "condition", "webhook", "secret"])
        let app = try fields.optional("app").map { value throws(DashboardLayoutError) in
            guard let id = (value.node.scalar?.string).flatMap({ Int64($0) }), id > 0 else { throw value.error("", "expected an app id") }
            return AppID(rawValue: id)
        }
        let metricText = try fields.required("metric").text(maximumLength: AlertMetric.maximumLength)
        let metric: AlertMetric
        if metricText.hasPrefix("funnel:"),
            case .funnel(let funnel)? = sections.first(where: { $0.id == metricText.dropFirst("funnel:".count) })?.content
        {
            metric = .funnel(funnel.steps)
        } else {
            do {
                metric = try AlertMetric(parsing: metricText)
            } catch {
                throw fields.error("metric", error.description)
            }
        }
        let conditionText = try fields.required("condition").text(maximumLength: 100)
        let condition: AlertCondition
        do {
            condition = try AlertCondition(parsing: conditionText)
        } catch {
            throw fields.error("condition", error.description)
        }
        var secret = try fields.required("secret").text(maximumLength: 256)
        if secret.hasPrefix("env:") {
            let name = String(secret.dropFirst("env:".count))
            guard let value = environment[name], !value.isEmpty else {
                throw fields.error("secret", "the environment variable \(name) is not set")
            }
            secret = value
        }
        let name = try fields.required("name").text(maximumLength: AlertRule.maximumNameLength)
        let webhook = try fields.required("webhook").text(maximumLength: AlertRule.maximumURLLength)
        do {
            let rule = try AlertRule(name: name, metric: metric, condition: condition, webhook: webhook, secret: secret)
            return DashboardAlerts.Entry(app: app, rule: rule)
        } catch {
            throw value.error("", error.description)
        }
    }

    private mutating func section(_ value: Value) throws(DashboardLayoutError) -> DashboardLayout.Section {
        let fields = try Fields(value, allowed: ["id", "title", "metrics", "builtin", "funnel", "screen_names", "unreliable_share"])
        let id = try fields.required("id").identifier()
        let title = try fields.required("title").text(maximumLength: 100)
        let content: DashboardLayout.Content
        switch (fields.optional("metrics"), fields.optional("builtin"), fields.optional("funnel")) {
        case (nil, nil, let funnel?):
            content = .funnel(try Self.funnel(funnel))
        case (let metrics?, nil, nil):
            let list = try metrics.sequence()
            guard !list.isEmpty else { throw fields.error("metrics", "a section needs at least one metric") }
            var parsed: [DashboardLayout.Metric] = []
            for item in list { parsed.append(try metric(item)) }
            content = .metrics(parsed)
        case (nil, let builtin?, nil):
            let name = try builtin.text(maximumLength: 64)
            guard let builtin = try Self.builtin(name, fields) else {
                throw builtin.error("", "unknown built-in section '\(name)'; one of \(Self.builtins.joined(separator: ", "))")
            }
            content = builtin
        default:
            throw fields.error("", "a section has one of metrics, builtin or funnel")
        }
        return DashboardLayout.Section(id: id, title: title, content: content)
    }

    /// A funnel section's `{steps: [...], window: 1d}`.
    private static func funnel(_ value: Value) throws(DashboardLayoutError) -> DashboardLayout.Funnel {
        let fields = try Fields(value, allowed: ["steps", "window"])
        let list = try fields.required("steps").sequence()
        var steps: [FunnelStep] = []
        for item in list {
            let text = try item.text(maximumLength: 500)
            do {
                let parsed = try FunnelStep.steps(parsing: text)
                guard parsed.count == 1 else { throw item.error("", "one step per item; escape a comma in a name as \\,") }
                steps.append(parsed[0])
            } catch let error as DashboardLayoutError {
                throw error
            } catch {
                throw item.error("", "not a step (NAME or NAME[CONDITIONS]): \(error)")
            }
        }
        if let problem = FunnelStep.problem(with: steps) { throw fields.error("steps", problem) }
        var window = FunnelWindow.day
        if let given = fields.optional("window") {
            let text = try given.text(maximumLength: 16)
            guard let parsed = FunnelWindow(text) else {
                throw given.error("", "'\(text)' is not a window: a whole number of s, m, h or d, such as 30m or 1d, at most 90d")
            }
            window = parsed
        }
        return DashboardLayout.Funnel(steps: steps, window: window)
    }

    private static let measures = ["count", "per_user", "distinct_users", "average", "empty_share", "breakdown"]

    private mutating func metric(_ value: Value) throws(DashboardLayoutError) -> DashboardLayout.Metric {
        let fields = try Fields(value, allowed: ["key", "label"] + Self.measures)
        let key = try fields.required("key").identifier()
        guard usedKeys.insert(key).inserted else { throw fields.error("key", "the metric key '\(key)' is used twice") }
        let label = try fields.required("label").text(maximumLength: 100)
        let given = Self.measures.filter { fields.optional($0) != nil }
        guard given.count == 1, let name = given.first, let spec = fields.optional(name) else {
            throw fields.error("", "a metric has exactly one of \(Self.measures.joined(separator: ", "))")
        }
        let measure: DashboardLayout.Measure
        switch name {
        case "count": measure = .count(event: try spec.text(maximumLength: 100))
        case "per_user": measure = .perUser(event: try spec.text(maximumLength: 100))
        case "distinct_users": measure = .distinctUsers(event: try spec.text(maximumLength: 100))
        default:
            let allowed = name == "average" ? ["event", "property", "unit"] : ["event", "property"]
            let parts = try Fields(spec, allowed: allowed)
            let event = try parts.required("event").text(maximumLength: 100)
            let property = try parts.required("property").text(maximumLength: 100)
            switch name {
            case "average":
                var unit: String?
                if let given = parts.optional("unit") { unit = try given.text(maximumLength: 16) }
                measure = .average(event: event, property: property, unit: unit)
            case "empty_share": measure = .emptyShare(event: event, property: property)
            default: measure = .breakdown(event: event, property: property)
            }
        }
        return DashboardLayout.Metric(key: key, label: label, measure: measure)
    }
}

/// A node and the path that led to it.
private struct Value {
    let node: Node
    let path: String

    func error(_ field: String, _ message: String) -> DashboardLayoutError {
        DashboardLayoutError(line: node.mark?.line, field: field.isEmpty ? path : join(path, field), message: message)
    }

    func sequence() throws(DashboardLayoutError) -> [Value] {
        guard let items = node.sequence else { throw error("", "expected a list") }
        return items.enumerated().map { Value(node: $1, path: "\(path)[\($0)]") }
    }

    func text(maximumLength: Int) throws(DashboardLayoutError) -> String {
        guard let text = node.scalar?.string, !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw error("", "expected a non-empty text")
        }
        guard text.count <= maximumLength else { throw error("", "longer than \(maximumLength) characters") }
        return text
    }

    /// Letters, digits, `_` and `-`: safe in URLs, element attributes and saved orders.
    func identifier() throws(DashboardLayoutError) -> String {
        let text = try text(maximumLength: 64)
        guard text.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-") }) else {
            throw error("", "'\(text)' may hold only letters, digits, '_' and '-'")
        }
        return text
    }

    func number() throws(DashboardLayoutError) -> Double {
        guard let text = node.scalar?.string, let number = Double(text), number.isFinite else { throw error("", "expected a number") }
        return number
    }

    func stringMap() throws(DashboardLayoutError) -> [String: String] {
        guard let mapping = node.mapping else { throw error("", "expected a mapping of names") }
        var map: [String: String] = [:]
        for (key, value) in mapping {
            let name = try Value(node: key, path: path).text(maximumLength: 100)
            map[name] = try Value(node: value, path: join(path, name)).text(maximumLength: 100)
        }
        return map
    }
}

/// The fields of a mapping node, checked against the names a place allows.
private struct Fields {
    private let value: Value
    private let members: [String: Value]

    init(_ value: Value, allowed: [String]) throws(DashboardLayoutError) {
        guard let mapping = value.node.mapping else { throw value.error("", "expected a mapping of fields") }
        var members: [String: Value] = [:]
        for (key, node) in mapping {
            guard let name = key.scalar?.string else { throw value.error("", "a field name must be text") }
            guard allowed.contains(name) else {
                throw Value(node: key, path: value.path).error(name, "unknown field; expected one of \(allowed.joined(separator: ", "))")
            }
            guard members[name] == nil else { throw Value(node: key, path: value.path).error(name, "given twice") }
            members[name] = Value(node: node, path: join(value.path, name))
        }
        self.value = value
        self.members = members
    }

    init(_ node: Node, path: String, allowed: [String]) throws(DashboardLayoutError) {
        try self.init(Value(node: node, path: path), allowed: allowed)
    }

    func optional(_ name: String) -> Value? { members[name] }

    func required(_ name: String) throws(DashboardLayoutError) -> Value {
        guard let member = members[name] else { throw value.error(name, "missing") }
        return member
    }

    func error(_ field: String, _ message: String) -> DashboardLayoutError {
        (members[field] ?? value).error(field.isEmpty || members[field] != nil ? "" : field, message)
    }
}

private func join(_ path: String, _ field: String) -> String {
    path.isEmpty ? field : "\(path).\(field)"
}

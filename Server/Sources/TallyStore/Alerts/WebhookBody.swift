import Foundation

/// The JSON body of a webhook POST, Slack-compatible: `text` is the message a Slack incoming
/// webhook shows; the other members are the evaluation's fields for other receivers.
///
/// `{"text", "app", "app_id", "rule", "metric", "condition", "day", "ends_day", "value",
/// "previous", "evaluated_at"}`, keys sorted, `previous` `null` unless the condition is a change.
struct WebhookBody: Encodable {
    let text: String
    let app: String
    let appID: Int64
    let rule: String
    let metric: String
    let condition: String
    let day: String
    let endsDay: Bool
    let value: Double
    let previous: Double?
    let evaluatedAt: String

    init(evaluation: AlertEvaluation, app: App) {
        let value = AlertCondition.format(evaluation.value)
        let against = evaluation.previous.map { " against \(AlertCondition.format($0)) a week earlier" } ?? ""
        let when = evaluation.endsDay ? "on \(evaluation.day)" : "so far on \(evaluation.day)"
        text = "Tally alert \"\(evaluation.rule)\" (\(app.name)): \(evaluation.metric) was \(value) \(when)\(against): \(evaluation.condition)."
        self.app = app.name
        appID = app.id.production.rawValue
        rule = evaluation.rule
        metric = evaluation.metric
        condition = evaluation.condition
        day = evaluation.day
        endsDay = evaluation.endsDay
        self.value = evaluation.value
        previous = evaluation.previous
        evaluatedAt = evaluation.at.formatted(Date.ISO8601FormatStyle())
    }

    /// The body's bytes.
    func json() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every member encodes: a failure would be a bug of this type.
        return Array((try? encoder.encode(self)) ?? Data("{}".utf8))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        try container.encode(app, forKey: .app)
        try container.encode(appID, forKey: .appID)
        try container.encode(rule, forKey: .rule)
        try container.encode(metric, forKey: .metric)
        try container.encode(condition, forKey: .condition)
        try container.encode(day, forKey: .day)
        try container.encode(endsDay, forKey: .endsDay)
        try container.encode(value, forKey: .value)
        try container.encode(previous, forKey: .previous)
        try container.encode(evaluatedAt, forKey: .evaluatedAt)
    }

    private enum CodingKeys: String, CodingKey {
        case text, app, rule, metric, condition, day, value, previous
        case appID = "app_id"
        case endsDay = "ends_day"
        case evaluatedAt = "evaluated_at"
    }
}

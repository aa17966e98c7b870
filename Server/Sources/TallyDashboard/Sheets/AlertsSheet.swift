import Foundation
import TallyEvent
import TallyStore

/// The app's alerts and annotations: the alerts fired lately and how their webhooks were
/// delivered, the rules (the dashboard file's, and those stored, which an editor deletes), a
/// form that stores a rule (its secret shown once, after), and the annotations of the page's
/// range with a form that adds one.
/// Viewers see everything but the forms and the delete buttons; a rule's webhook shows as its
/// host alone (a Slack webhook's path is a credential).
@MainActor
struct AlertsSheet {
    /// What the sheet shows beside the page: read when it opens and after each change.
    struct Data {
        /// The page query it was read for (its range bounds the annotations).
        var query: PageQuery
        /// The stored rules.
        var rules: [AlertRule]
        /// The latest evaluations that fired, newest first.
        var fired: [AlertEvaluation]
        /// The latest webhook deliveries, newest first.
        var deliveries: [WebhookDelivery] = []
        /// The annotations of the query's range.
        var annotations: [Annotation]
        /// The rule just stored and its secret, shown this once.
        var secret: (rule: String, secret: String)?
    }

    let page: DashboardPage

    var html: String {
        let canEdit = page.role.canEdit
        var values: [String: Any] = ["canEdit": canEdit, "maximumNameLength": AlertRule.maximumNameLength]
        guard let data = page.viewModel.alerts else {
            values["message"] = "Reading the alerts…"
            return SheetTarget.frame("alerts", title: "Alerts", body: DashboardViews.render("alerts-sheet", values), page: page)
        }
        values["fired"] = data.fired.map { evaluation in
            [
                "rule": evaluation.rule, "day": CalendarDay(shown: evaluation.day)?.readable ?? evaluation.day,
                "text": "\(evaluation.metric) was \(Self.number(evaluation.value))"
                    + (evaluation.previous.map { " against \(Self.number($0)) a week earlier" } ?? "") + ": \(evaluation.condition)",
            ]
        }
        values["deliveries"] = data.deliveries.map { delivery in
            [
                "rule": delivery.rule, "state": Self.stateName(delivery.state),
                "time": TimelineView.moment(delivery.createdAt, in: page.timeZone),
                "text": Self.progress(of: delivery),
            ]
        }
        let fileRules = page.viewModel.layout.alerts.rules(of: page.app.id)
        values["rules"] =
            fileRules.map { Self.row($0, stored: false, canEdit: canEdit) } + data.rules.map { Self.row($0, stored: true, canEdit: canEdit) }
        if let secret = data.secret { values["secret"] = ["rule": secret.rule, "value": secret.secret] }
        values["metrics"] = metricSuggestions().map { ["value": $0] }
        values["annotations"] = data.annotations.map { annotation in
            [
                "id": String(annotation.id), "text": annotation.text,
                "day": CalendarDay(annotation.time, in: page.timeZone).readable, "canEdit": canEdit,
            ] as [String: Any]
        }
        values["today"] = data.query.date.description
        return SheetTarget.frame("alerts", title: "Alerts", body: DashboardViews.render("alerts-sheet", values), page: page)
    }

    /// A rule's row: its name, what it watches, its webhook's host, and whether it may be deleted here.
    private static func row(_ rule: AlertRule, stored: Bool, canEdit: Bool) -> [String: Any] {
        [
            "name": rule.name, "metric": rule.metric.description, "condition": rule.condition.description,
            "host": rule.webhook.host ?? "", "fromFile": !stored, "deletable": stored && canEdit,
        ]
    }

    /// Where a delivery stands, in words: `delivered`, `retrying after 3 attempts: the
    /// webhook answered 500`, `gave up after 9 attempts in an hour: …`, or `gave up: …` for
    /// one given up at its first attempt (its URL not valid).
    private static func progress(of delivery: WebhookDelivery) -> String {
        let attempts = "\(delivery.attempts) \(delivery.attempts == 1 ? "attempt" : "attempts")"
        let reason = delivery.lastError.map { ": \($0)" } ?? ""
        switch delivery.state {
        case .pending: return delivery.attempts == 0 ? "waiting to be sent" : "retrying after \(attempts)\(reason)"
        case .delivered: return delivery.attempts > 1 ? "delivered after \(attempts)" : "delivered"
        case .gaveUp: return delivery.attempts > 1 ? "gave up after \(attempts) in an hour\(reason)" : "gave up\(reason)"
        case .dropped: return "dropped unsent: the outbox was full"
        }
    }

    /// The state as the row's `data-state`, which styles it.
    private static func stateName(_ state: WebhookDelivery.State) -> String {
        switch state {
        case .pending: "pending"
        case .delivered: "delivered"
        case .gaveUp, .dropped: "failed"
        }
    }

    /// The metrics the form suggests: the headlines, the layout's counted events and funnels,
    /// and the app's saved segments.
    private func metricSuggestions() -> [String] {
        var metrics = AlertMetric.Headline.allCases.map(\.rawValue)
        for section in page.viewModel.layout.sections {
            switch section.content {
            case .metrics(let list):
                for metric in list {
                    if case .count(let event) = metric.measure { metrics.append(AlertMetric.event(event).description) }
                }
            case .funnel(let funnel):
                metrics.append(AlertMetric.funnel(funnel.steps).description)
            default:
                break
            }
        }
        metrics += page.viewModel.savedSegments.value.map { AlertMetric.segment($0.name).description }
        var seen: Set<String> = []
        return metrics.filter { seen.insert($0).inserted }
    }

    /// `value` without a fraction when it has none, else with one decimal.
    nonisolated static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(format: "%.1f", value)
    }
}

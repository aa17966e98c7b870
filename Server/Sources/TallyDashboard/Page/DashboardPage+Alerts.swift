import Foundation
import TallyEvent
import TallyHTTP
public import TallyStore

extension DashboardPage {
    /// Stores `rule` for the page's app (replacing a stored rule of its name), then shows the
    /// alerts sheet again with the rule's secret, shown this once. Refused, with a message to
    /// the browser and nothing changed, unless the page's user may edit the app; so is a
    /// rule the dashboard file has already, one past the app's limit, or one whose webhook is
    /// on a non-public address the server does not send to (``allowsPrivateWebhooks``).
    public func saveAlert(_ rule: AlertRule) async {
        guard let store, mayEdit("add-alert") else { return }
        guard !viewModel.layout.alerts.rules(of: app.id).contains(where: { $0.name == rule.name }) else {
            send(PageMessage(error: "The dashboard file has an alert named \u{201C}\(rule.name)\u{201D}: choose another name."))
            return
        }
        if !allowsPrivateWebhooks, let host = IPAddress.nonPublicHost(of: rule.webhook) {
            send(
                PageMessage(error: "The webhook\u{2019}s host \(host) is not a public address: this server sends webhooks to public addresses only."))
            return
        }
        do {
            try await store.alerts.save(rule, app: app.id)
        } catch {
            send(PageMessage(error: Self.alertRefusal(error)))
            return
        }
        await readAlerts(secret: (rule.name, rule.secret))
    }

    /// Deletes the stored rule `name`, then shows the alerts sheet again; refused as
    /// ``saveAlert(_:)`` is.
    public func deleteAlert(named name: String) async {
        guard let store, mayEdit("delete-alert") else { return }
        do {
            try await store.alerts.delete(app: app.id, name: name)
        } catch {
            send(PageMessage(error: Self.alertRefusal(error)))
            return
        }
        await readAlerts()
    }

    /// Adds an annotation at the start of `note`'s day in the page's time zone, then shows the
    /// alerts sheet and the charts again; refused as ``saveAlert(_:)`` is.
    public func addAnnotation(_ note: NewAnnotation) async {
        guard let store, mayEdit("add-annotation") else { return }
        guard let start = note.day.start(in: timeZone) else { return }
        do {
            try await store.annotations.add(app: app.id, time: start, text: note.text)
        } catch {
            send(PageMessage(error: Self.alertRefusal(error)))
            return
        }
        await readAlerts()
        reload()
    }

    /// Deletes the annotation `id`, then shows the alerts sheet and the charts again; refused
    /// as ``saveAlert(_:)`` is.
    public func deleteAnnotation(_ id: Int64) async {
        guard let store, mayEdit("delete-annotation") else { return }
        do {
            try await store.annotations.delete(app: app.id, id: id)
        } catch {
            send(PageMessage(error: Self.alertRefusal(error)))
            return
        }
        await readAlerts()
        reload()
    }

    /// What the alerts sheet shows for `query`: the stored rules, the latest firings and
    /// webhook deliveries, and the annotations of the query's range; `nil` if the store could
    /// not be read.
    func readAlerts(for query: PageQuery) async -> AlertsSheet.Data? {
        guard let store else { return nil }
        guard let from = query.from.start(in: timeZone), let to = query.date.adding(1).start(in: timeZone),
            let rules = try? await store.alerts.rules(app: app.id),
            let fired = try? await store.alerts.evaluations(app: app.id, firedOnly: true, limit: 20),
            let deliveries = try? await store.alerts.deliveries(app: app.id, limit: 10),
            let annotations = try? await store.annotations.list(app: app.id, from: from, to: to)
        else { return nil }
        return AlertsSheet.Data(query: query, rules: rules, fired: fired, deliveries: deliveries, annotations: annotations)
    }

    /// Reads the alerts sheet's data again and redraws it; with `secret`, the sheet shows
    /// that rule's secret.
    private func readAlerts(secret: (rule: String, secret: String)? = nil) async {
        guard var data = await readAlerts(for: viewModel.query.value) else { return }
        data.secret = secret
        viewModel.alerts = data
        send(PageMessage(patches: refreshSheet()))
    }

    /// Whether the page's user may edit the app; tells the browser when not.
    private func mayEdit(_ event: String) -> Bool {
        guard role.canEdit else {
            send(PageMessage(error: BrowserEventError.notAllowed(event, role: role).description))
            return false
        }
        return true
    }

    /// What the browser is told when the store refused a change.
    private static func alertRefusal(_ error: any Error) -> String {
        (error as? TallyStoreError)?.description ?? "The change could not be saved: \(error)"
    }
}

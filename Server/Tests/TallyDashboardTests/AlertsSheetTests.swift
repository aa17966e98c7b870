import Foundation
import TallyEvent
import TallyStore
import Testing

@testable import TallyDashboard

/// The alerts sheet and the charts' annotations, driven on a page as the socket drives it.
@MainActor @Suite struct AlertsSheetTests {
    static func page(_ fixture: DashboardFixture, role: AppRole, layout: DashboardLayout = .default) -> (DashboardPage, () -> [String]) {
        let page = DashboardPage(
            app: fixture.app.app, layout: layout, query: PageQuery(date: CalendarDay(shown: DashboardFixture.day)!), store: fixture.store,
            role: role)
        let errors = ErrorLog()
        page.outbox = { message in if let error = message.error { errors.values.append(error) } }
        return (page, { errors.values })
    }

    final class ErrorLog {
        var values: [String] = []
    }

    /// An editor's rule is stored with a fresh secret, shown once in the sheet; a bad one and
    /// one named as a rule of the dashboard file are refused with a message, storing nothing.
    @Test func anEditorAddsAndDeletesRulesAndSeesTheSecretOnce() async throws {
        let fixture = try await DashboardFixture()
        let fileRule = try AlertRule(
            name: "From file", metric: .headline(.dau), condition: .below(1), webhook: "https://hooks.example.com/T0/B0/x", secret: "f")
        var layout = DashboardLayout.default
        layout.alerts = DashboardAlerts(entries: [.init(app: nil, rule: fileRule)])
        let (page, errors) = Self.page(fixture, role: .editor, layout: layout)
        try page.receive(BrowserEvent(section: nil, name: "sheet", value: "alerts"))
        await page.refresh()
        #expect(page.sheetHTML.contains("From file") && page.sheetHTML.contains("hooks.example.com") && !page.sheetHTML.contains("/T0/B0/x"))

        await page.saveAlert(
            try AlertRule(name: "Few bills", metric: .event("bill_created"), condition: .below(10), webhook: "https://example.com/h", secret: "whs_x")
        )
        let stored = try await fixture.store.alerts.rules(app: fixture.app.app.id)
        #expect(stored.map(\.name) == ["Few bills"])
        #expect(page.sheetHTML.contains("whs_x") && page.sheetHTML.contains("alert-delete"))
        await page.loadSheetData(force: true)
        _ = page.refreshSheet()
        #expect(!page.sheetHTML.contains("whs_x"), "the secret is shown once")

        try page.receive(
            BrowserEvent(section: nil, name: "add-alert", value: "name=x&metric=weekly&condition=above+1&webhook=https%3A%2F%2Fexample.com"))
        #expect(errors().last?.contains("unknown metric") == true)
        await page.saveAlert(fileRule)
        #expect(errors().last?.contains("dashboard file") == true)
        #expect(try await fixture.store.alerts.rules(app: fixture.app.app.id).count == 1)
        await page.deleteAlert(named: "Few bills")
        #expect(try await fixture.store.alerts.rules(app: fixture.app.app.id).isEmpty)
    }

    /// The sheet lists the latest webhook deliveries, newest first, each with where it stands:
    /// waiting, retrying with the last failure's reason, delivered, or given up (marked as a
    /// failure); a viewer sees them too.
    @Test func webhookDeliveriesShowHowTheyWent() async throws {
        let fixture = try await DashboardFixture()
        let (app, store) = (fixture.app.app, fixture.store)
        func sheet() async throws -> String {
            let (page, _) = Self.page(fixture, role: .viewer)
            try page.receive(BrowserEvent(section: nil, name: "sheet", value: "alerts"))
            await page.refresh()
            return page.sheetHTML
        }
        #expect(try await sheet().contains("No webhook has been sent."))

        let now = Date()
        for (index, name) in ["Few bills", "Many ads"].enumerated() {
            let rule = try AlertRule(name: name, metric: .headline(.dau), condition: .below(1), webhook: "https://example.com/h", secret: "s")
            let evaluation = AlertEvaluation(
                rule: name, at: now.addingTimeInterval(Double(index)), day: DashboardFixture.day, endsDay: true, metric: "dau",
                condition: "below 1", value: 0, previous: nil, fired: true)
            try await store.alerts.record(evaluation, of: rule, app: app, now: now.addingTimeInterval(Double(index)))
        }
        #expect(try await sheet().contains(#"<li class="alert-delivery" data-state="pending"><strong>Few bills</strong>"#))
        #expect(try await sheet().contains("waiting to be sent"))

        var hours = 0.0
        func attempt(_ rule: String, _ state: WebhookDelivery.State, error: String?) async throws {
            hours += 1  // past the lease of the claim before
            let due = try await store.alerts.claimDueDeliveries(now: now.addingTimeInterval(hours * 3_600), lease: 60, limit: 10)
            let delivery = try #require(due.first { $0.rule == rule })
            try await store.alerts.finishAttempt(delivery, state: state, nextAttempt: now, error: error)
        }
        try await attempt("Few bills", .pending, error: "the webhook answered 500")
        #expect(
            try await sheet().contains(
                "<strong>Few bills</strong> · \(TimelineView.moment(now, in: .gmt)) · retrying after 1 attempt: the webhook answered 500"
            ))
        try await attempt("Few bills", .gaveUp, error: "the webhook answered 503")
        try await attempt("Many ads", .pending, error: "timed out")
        try await attempt("Many ads", .delivered, error: nil)
        let html = try await sheet()
        let rows = html.matches(of: /<li class="alert-delivery" data-state="(\w+)"><strong>([^<]+)<\/strong> · [^·]+ · ([^<]+)<\/li>/).map {
            [String($0.output.1), String($0.output.2), String($0.output.3)]
        }
        #expect(
            rows == [
                ["delivered", "Many ads", "delivered after 2 attempts"],
                ["failed", "Few bills", "gave up after 2 attempts in an hour: the webhook answered 503"],
            ])

        // One that could not be attempted at all is given up at its first attempt, with the reason.
        let rule = try AlertRule(name: "Bad URL", metric: .headline(.dau), condition: .below(1), webhook: "https://example.com/h", secret: "s")
        let evaluation = AlertEvaluation(
            rule: rule.name, at: now.addingTimeInterval(2), day: DashboardFixture.day, endsDay: true, metric: "dau", condition: "below 1",
            value: 0, previous: nil, fired: true)
        try await store.alerts.record(evaluation, of: rule, app: app, now: now.addingTimeInterval(2))
        try await attempt("Bad URL", .gaveUp, error: "the webhook's URL is not valid")
        let given = try await sheet().matches(of: /data-state="failed"><strong>Bad URL<\/strong> · [^·]+ · ([^<]+)<\/li>/).map { String($0.output.1) }
        #expect(given == ["gave up: the webhook&#39;s URL is not valid"])
    }

    /// A rule whose webhook is on loopback or another non-public address is refused with a
    /// message, storing nothing, unless the server sends webhooks to such addresses.
    @Test func aWebhookOnANonPublicAddressIsRefusedUnlessAllowed() async throws {
        let fixture = try await DashboardFixture()
        let (page, errors) = Self.page(fixture, role: .editor)
        let urls = [
            "http://127.0.0.1:9090/hook", "http://localhost/hook", "http://api.localhost/hook", "http://[::1]/hook", "https://10.1.2.3/hook",
            "http://169.254.169.254/latest", "https://[fd00::1]/hook", "http://[::ffff:192.168.0.1]/hook",
        ]
        for (index, url) in urls.enumerated() {
            await page.saveAlert(try AlertRule(name: "r\(index)", metric: .headline(.dau), condition: .below(1), webhook: url, secret: "s"))
            #expect(errors().count == index + 1 && errors().last?.contains("not a public address") == true, "\(url)")
        }
        #expect(try await fixture.store.alerts.rules(app: fixture.app.app.id).isEmpty)

        page.allowsPrivateWebhooks = true
        await page.saveAlert(try AlertRule(name: "Local", metric: .headline(.dau), condition: .below(1), webhook: urls[0], secret: "s"))
        #expect(try await fixture.store.alerts.rules(app: fixture.app.app.id).map(\.name) == ["Local"])
        #expect(errors().count == urls.count)
    }

    /// An annotation added in the sheet is marked on the App section's chart, its text in
    /// the marker's title and label; a viewer sees it and no form.
    @Test func annotationsAreMarkedOnTheCharts() async throws {
        let fixture = try await DashboardFixture()
        let (page, _) = Self.page(fixture, role: .editor)
        try page.receive(BrowserEvent(section: nil, name: "add-annotation", value: "day=2026-11-20&text=v2.3+%3Creleased%3E"))
        // The page stores it in a task of its own: wait for it, as long as a loaded machine needs.
        var notes: [Annotation] = []
        for _ in 0..<1_000 where notes.isEmpty {
            notes = try await fixture.store.annotations.list(app: fixture.app.app.id, from: .distantPast, to: .distantFuture)
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(notes.map(\.text) == ["v2.3 <released>"])
        await page.refresh()
        let html = page.html(styleNonce: "n")
        #expect(html.contains(#"class="annotation" tabindex="0" role="note" aria-label="20 Nov: v2.3 &lt;released&gt;" data-day="2026-11-20""#))

        let (viewer, _) = Self.page(fixture, role: .viewer)
        try viewer.receive(BrowserEvent(section: nil, name: "sheet", value: "alerts"))
        await viewer.refresh()
        #expect(viewer.sheetHTML.contains("v2.3 &lt;released&gt;") && !viewer.sheetHTML.contains("annotation-add"))
        #expect(throws: BrowserEventError.notAllowed("delete-annotation", role: .viewer)) {
            try viewer.receive(BrowserEvent(section: nil, name: "delete-annotation", value: String(notes[0].id)))
        }
    }

    /// A chart marks each annotated day of its range once, with every text of the day, and
    /// none outside the range.
    @Test func theChartMarksAnnotatedDays() {
        let dates = (1...30).map { "2026-11-\($0 < 10 ? "0" : "")\($0)" }
        let chart = TrendChart(
            dates: dates, values: Array(repeating: 1, count: 30), title: "Users",
            annotations: [
                ChartAnnotation(day: "2026-11-03", text: "a"), ChartAnnotation(day: "2026-11-03", text: "b"),
                ChartAnnotation(day: "2026-12-01", text: "outside"), ChartAnnotation(day: "2026-11-30", text: "last"),
            ])
        let svg = chart.svg
        #expect(svg.components(separatedBy: "class=\"annotation\"").count - 1 == 2)
        #expect(svg.contains("aria-label=\"3 Nov: a; b\"") && svg.contains("<title>30 Nov: last</title>") && !svg.contains("outside"))
        #expect(svg.contains("x1=\"100.0%\""))
    }

    /// The App section shows the alerts fired in the last day.
    @Test func aRecentFiringShowsAsABanner() {
        let now = Date()
        let fired = AlertEvaluation(
            rule: "Few <bills>", at: now.addingTimeInterval(-3_600), day: "2026-11-19", endsDay: true, metric: "event:bill_created",
            condition: "below 10", value: 3, previous: nil, fired: true)
        var old = fired
        old.at = now.addingTimeInterval(-90_000)
        #expect(AlertBanner(fired: [fired], now: now).html.contains("<strong>Few &lt;bills&gt;</strong>: event:bill_created was 3 on"))
        #expect(AlertBanner(fired: [old], now: now).html.isEmpty)
    }
}

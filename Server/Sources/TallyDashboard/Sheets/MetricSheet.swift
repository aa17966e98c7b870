import TallyStore

/// A metric's detail: its value, a daily chart over the range, a breakdown, and the CSV
/// of the chart's numbers.
@MainActor
struct MetricSheet {
    /// The most property values a breakdown lists; the rest count as "other".
    static let breakdownLength = 50

    let page: DashboardPage
    let key: String

    var html: String {
        let query = page.viewModel.query.value
        let report = page.viewModel.report.value
        let series = report.flatMap { MetricSeries(key: key, layout: page.viewModel.layout, report: $0, query: query) }
        let tile = page.sections.lazy.flatMap(\.items).first { $0.id == key }
        let (column, rows) = breakdown(report)
        let csv = "/apps/\(page.app.id.rawValue)/metrics/\(key).csv?" + query.with { $0.sheet = nil }.queryString
        let body = DashboardViews.render(
            "metric-sheet",
            [
                "key": key, "value": page.viewModel.detail?.value.text ?? tile?.value ?? "—", "detail": tile?.detail ?? "",
                "chart": series.map {
                    TrendChart(dates: $0.dates, values: $0.values, title: $0.title, caption: $0.title, annotations: report?.annotations ?? []).html
                }
                    ?? "<p class=\"hint\">No daily series for this metric</p>",
                "csvURL": csv,
                "breakdownTitle": column.title, "breakdownColumn": column.name, "breakdown": rows,
            ])
        return SheetTarget.frame("metric", title: tile?.label ?? key, body: body, page: page)
    }

    /// The metric's breakdown: by its property for a breakdown metric, else the day's users
    /// by app version.
    private func breakdown(_ report: DayReport?) -> ((title: String, name: String), [[String: Any]]) {
        guard let report else { return (("Breakdown", "Value"), []) }
        if let breakdown = report.breakdowns[key] {
            var rows: [[String: Any]] = breakdown.top.map { ["label": $0.value, "count": $0.events] }
            if breakdown.otherEvents > 0 { rows.append(["label": "Other (\(breakdown.otherValues) values)", "count": breakdown.otherEvents]) }
            if breakdown.missing > 0 { rows.append(["label": "Not set", "count": breakdown.missing]) }
            return (("Events by value", "Value"), rows)
        }
        let versions = report.metrics.versions.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        return (("Users by app version", "Version"), versions.map { ["label": $0.key.isEmpty ? "unknown" : $0.key, "count": $0.value] })
    }
}

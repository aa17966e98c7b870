import TallyStore

/// The daily numbers behind a metric, over a page's charts window: what the metric sheet
/// draws and its CSV holds.
///
/// Users come from the daily active users; a metric measured on an event (a count, a
/// per-user figure, an average…) charts that event's daily count, and says so.
struct MetricSeries {
    /// What the numbers are: "Daily bill_created events".
    var title: String
    /// The days, oldest first.
    var dates: [String]
    /// One number per day.
    var values: [Int]

    /// The series of the metric `key` of `layout` in `report`, cut to the page's range when
    /// that spans several days; `nil` for a key with no daily series.
    init?(key: String, layout: DashboardLayout, report: DayReport, query: PageQuery) {
        guard let trend = report.trend else { return nil }
        let event: String?
        switch key {
        case "dau", "wau", "mau", "new_users", "range_users", "average_dau": event = nil
        case "events", "range_events": event = ""
        case _ where key.hasPrefix("event:"): event = String(key.dropFirst(6))
        default:
            guard
                let measure = layout.sections.lazy.compactMap({ section -> DashboardLayout.Measure? in
                    guard case .metrics(let list) = section.content else { return nil }
                    return list.first { $0.key == key }?.measure
                }).first
            else { return nil }
            event = measure.event
        }
        var values: [Int]
        switch event {
        case nil:
            title = "Daily active users"
            values = trend.dau
        case "":
            title = "Daily events"
            values = trend.dates.indices.map { day in trend.events.values.reduce(0) { $0 + ($1.indices.contains(day) ? $1[day] : 0) } }
        case let name?:
            title = "Daily \(name) events"
            values = trend.events[name] ?? Array(repeating: 0, count: trend.dates.count)
        }
        var dates = trend.dates
        if query.days > 1, let start = dates.firstIndex(of: query.from.description) {
            dates = Array(dates[start...])
            values = Array(values.suffix(dates.count))
        }
        self.dates = dates
        self.values = values
    }

    /// `date,value` lines with a header: the CSV export.
    var csv: String {
        zip(dates, values).reduce("date,value\n") { $0 + "\($1.0),\($1.1)\n" }
    }
}

extension DashboardLayout.Measure {
    /// The event the measure reads.
    var event: String {
        switch self {
        case .count(let event), .perUser(let event), .distinctUsers(let event): event
        case .average(let event, _, _), .emptyShare(let event, _), .breakdown(let event, _): event
        }
    }
}

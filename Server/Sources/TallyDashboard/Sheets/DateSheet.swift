/// The date picker: the presets, a custom range, and "compare with the previous period".
@MainActor
struct DateSheet {
    let page: DashboardPage

    var html: String {
        let query = page.viewModel.query.value
        let today = page.today
        let presets: [[String: Any]] = PageQuery.Preset.allCases.map { preset in
            let range = preset.range(today: today)
            let target = query.with {
                $0.from = range.lowerBound
                $0.date = range.upperBound
            }
            return [
                "value": preset.rawValue, "label": preset.label, "query": target.queryString,
                "selected": range == query.from...query.date,
            ]
        }
        let previous = query.previousPeriod
        let body = DashboardViews.render(
            "date-sheet",
            [
                "presets": presets, "from": query.from.description, "to": query.date.description, "compare": query.compare,
                "previous": previous.lowerBound == previous.upperBound
                    ? previous.lowerBound.readable : "\(previous.lowerBound.readable) – \(previous.upperBound.readable)",
            ])
        return SheetTarget.frame("date", title: "Dates", body: body, page: page)
    }
}

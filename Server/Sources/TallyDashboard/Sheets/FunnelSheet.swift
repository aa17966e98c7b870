import ComponentryList
import TallyEvent
import TallyStore

/// An ad-hoc funnel over the page's range and filter: 2 to 10 steps picked from the app's
/// event names, a window, and a breakdown by a property, shown as one row per value with
/// each step's users and conversion. The page counts it (``DashboardPage/loadSheetData(force:)``)
/// each time the form changes, and again as new events arrive.
@MainActor
struct FunnelSheet {
    let page: DashboardPage
    let funnel: FunnelQuery

    var html: String {
        let query = page.viewModel.query.value
        let names = eventNames
        let chosen = funnel.steps.map(\.event)
        let count = min(max(funnel.steps.count + 1, 3), Funnel.maximumSteps)
        let steps: [[String: Any]] = (0..<count).map { index in
            let current = chosen.indices.contains(index) ? chosen[index] : nil
            return [
                "number": index + 1, "placeholder": index < 2 ? "Choose an event" : "Add a step",
                "options": (current.map { names.contains($0) ? names : [$0] + names } ?? names).map { ["name": $0, "selected": $0 == current] },
            ]
        }
        var windows = FunnelWindow.choices
        if !windows.contains(funnel.window) { windows.append(funnel.window) }
        var values: [String: Any] = [
            "steps": steps,
            "windows": windows.map { ["value": $0.description, "label": $0.readable, "selected": $0 == funnel.window] },
            "breakdowns": page.filterProperties.map {
                ["name": $0.name, "label": SegmentFilter.label(of: $0.name), "selected": $0.name == funnel.breakdown]
            },
            "scope": scope(query),
        ]
        if !funnel.isComplete {
            values["message"] = "Pick at least two steps: the users who did each, in order, within the window."
        } else if let counted = page.viewModel.adHocFunnel, counted.query == query {
            switch counted.report {
            case .counted(let result): values["result"] = Self.result(result, steps: funnel.steps)
            case .failed(let reason): values["error"] = reason
            }
        } else {
            values["message"] = "Counting…"
        }
        return SheetTarget.frame("funnel", title: "Funnel", body: DashboardViews.render("funnel-sheet", values), page: page)
    }

    /// The event names to pick from: those of the report's day and its charts' window, by name.
    private var eventNames: [String] {
        let report = page.viewModel.report.value
        var names = Set(report?.metrics.events.keys ?? [:].keys)
        names.formUnion(report?.trend?.events.keys ?? [:].keys)
        return names.sorted()
    }

    /// What the funnel counts: `Users who started 21 Oct – 19 Nov 2026 · App version is 3.3.0`.
    private func scope(_ query: PageQuery) -> String {
        let range = query.days == 1 ? query.date.readable : "\(query.from.readable) – \(query.date.readable)"
        let filter = query.filter.isEmpty ? "every user" : query.filter.conditions.map(\.readable).joined(separator: "; ")
        return "Chains starting \(range), \(filter)\(query.debug ? ", debug builds" : "")."
    }

    /// The counted funnel: a bar per step, then a row per value of the breakdown.
    static func result(_ funnel: Funnel, steps: [FunnelStep]) -> String {
        var html = "<ol class=\"funnel-bars\" aria-label=\"Steps\">"
        for (index, step) in FunnelView.steps(of: funnel.steps, named: steps).enumerated() {
            html += "<li class=\"funnel-step\"><span class=\"label\">\(HTMLText.escape(step.label))</span>"
            html += "<span class=\"value\" data-metric=\"funnel-step:\(index + 1)\">\(step.users)</span>"
            html += FunnelView.bar(step.share) + "<span class=\"detail\">\(HTMLText.escape(step.detail))</span></li>"
        }
        html +=
            "</ol><p class=\"funnel-total\">Converted: <strong data-metric=\"funnel-conversion\">\(FunnelView.conversion(of: funnel.steps))</strong></p>"
        guard let property = funnel.breakdownProperty, let segments = funnel.breakdown else { return html }
        let label = HTMLText.escape(SegmentFilter.label(of: property))
        html += "<h3>By \(label)</h3>"
        guard !segments.isEmpty else { return html + "<p class=\"hint\">Nobody took the first step.</p>" }
        html += "<div class=\"table-scroll\"><table class=\"funnel-breakdown\"><thead><tr><th scope=\"col\">\(label)</th>"
        for (index, step) in steps.enumerated() {
            html += "<th scope=\"col\" title=\"\(HTMLText.escape(step.readable))\">Step \(index + 1)</th>"
        }
        html += "<th scope=\"col\">Converted</th></tr></thead><tbody>"
        for segment in segments {
            let value = segment.value.map { $0.isEmpty ? "(empty)" : $0 } ?? "(none)"
            html += "<tr data-breakdown-value=\"\(HTMLText.escape(segment.value ?? ""))\"><th scope=\"row\">\(HTMLText.escape(value))</th>"
            let first = segment.steps.first?.users ?? 0
            for (index, step) in segment.steps.enumerated() {
                let share = index == 0 ? "" : " <small>\(FunnelView.percent(first > 0 ? Double(step.users) / Double(first) : 0))</small>"
                html += "<td>\(step.users)\(share)</td>"
            }
            html += "<td>\(FunnelView.conversion(of: segment.steps))</td></tr>"
        }
        return html + "</tbody></table></div>"
    }
}

import TallyStore

/// Adds a condition to the page's filter: a property (`app_version`, `platform`, the app's
/// segment properties), `is` or `is not`, and values — the values seen lately to tick, and
/// one to type. Opened on a property the filter has already, it shows that condition, which
/// applying replaces. Lists the saved segments, when there are any.
@MainActor
struct FilterSheet {
    let page: DashboardPage
    /// The property picked, if any.
    let property: String?

    var html: String {
        let query = page.viewModel.query.value.with { $0.sheet = nil }
        let properties = page.filterProperties
        let property = properties.contains { $0.name == self.property } ? self.property : nil
        var groups: [(label: String, properties: [[String: Any]])] = []
        for (name, group) in properties {
            let option: [String: Any] = ["name": name, "label": SegmentFilter.label(of: name), "selected": name == property]
            if groups.last?.label == group { groups[groups.count - 1].properties.append(option) } else { groups.append((group, [option])) }
        }
        var values: [String: Any] = [
            "groups": groups.map { ["label": $0.label, "properties": $0.properties] as [String: Any] }, "hasProperty": property != nil,
        ]
        if let property {
            let current = query.filter.condition(on: property)
            let seen = page.viewModel.filterSuggestions?[property] ?? []
            // The values the filter has already come first, ticked, seen lately or not.
            let chosen = current?.values ?? []
            let listed = chosen + seen.filter { !chosen.contains($0) }
            values["negated"] = current?.isNegated ?? false
            values["suggestions"] = listed.map { ["value": $0, "label": $0.isEmpty ? "(empty)" : $0, "checked": chosen.contains($0)] }
            values["empty"] = page.viewModel.filterSuggestions == nil ? "Reading the values seen lately…" : "No values seen lately: type one."
        }
        let segments = DashboardViews.savedSegments(for: page, query: query)
        values["segments"] = segments
        values["hasSegments"] = !segments.isEmpty
        let title = property.map { "Filter by \(SegmentFilter.label(of: $0))" } ?? "Add a filter"
        return SheetTarget.frame("filter", title: title, body: DashboardViews.render("filter-sheet", values), page: page)
    }
}

import Foundation
import TallyStore

/// Where sessions went after a screen (or an event), or came from before it, over the
/// page's range, time zone and filter: a form (the start, picked from the day's screens or
/// events, the kind of step, the direction and the depth), then the store's ``Paths`` drawn
/// as ranked columns (``PathChart``). The page counts them
/// (``DashboardPage/loadSheetData(force:)``) when the sheet opens, each time the form
/// changes, and again as new events arrive.
@MainActor
struct PathsSheet {
    let page: DashboardPage
    let paths: PathQuery

    var html: String {
        let query = page.viewModel.query.value
        let report = page.viewModel.report.value
        let names = paths.kind == .screen ? screenNames : [:]
        let noun = paths.kind == .screen ? "screen" : "event"
        var starts = report?.pathStarts(paths.kind) ?? []
        if paths.isComplete && !starts.contains(paths.start) { starts.insert(paths.start, at: 0) }
        // Without the script the form loads the page it names: the page's own, with the sheet.
        let hidden = (query.with { $0.sheet = nil }.queryItems + [URLQueryItem(name: "sheet", value: "paths")]).map {
            ["name": $0.name, "value": $0.value ?? ""]
        }
        var values: [String: Any] = [
            "hidden": hidden,
            "starts": starts.map { ["name": $0, "label": names[$0] ?? $0, "selected": $0 == paths.start] },
            "kinds": Paths.Kind.allCases.map { ["value": $0.rawValue, "label": $0 == .screen ? "Screens" : "Events", "selected": $0 == paths.kind] },
            "directions": Paths.Direction.allCases.map {
                ["value": $0.rawValue, "label": $0 == .after ? "After it" : "Before it", "selected": $0 == paths.direction]
            },
            "depths": (1...Paths.maximumDepth).map { ["value": $0, "selected": $0 == paths.depth] },
            "scope": scope(query),
        ]
        if !paths.isComplete {
            values["placeholder"] = "Choose a\(paths.kind == .event ? "n" : "") \(noun)"
            values["message"] = "Pick a\(paths.kind == .event ? "n" : "") \(noun) to start from."
        } else if let counted = page.viewModel.paths, counted.query == query {
            switch counted.report {
            case .counted(let result) where result.sessions == 0:
                values["message"] = paths.kind == .screen ? "No session showed this screen in the range." : "No session had this event in the range."
            case .counted(let result):
                values["total"] = result.sessions
                values["result"] = PathChart(paths: result, names: names).html
            case .failed(let reason):
                values["error"] = reason
            }
        } else {
            values["message"] = "Counting…"
        }
        let title = paths.isComplete ? "Paths \(paths.direction == .after ? "from" : "to") \(names[paths.start] ?? paths.start)" : "Paths"
        return SheetTarget.frame("paths", title: title, body: DashboardViews.render("paths-sheet", values), page: page)
    }

    /// The screens' names as the layout's Screens section shows them.
    private var screenNames: [String: String] {
        for section in page.viewModel.layout.sections {
            if case .screens(let names) = section.content { return names }
        }
        return [:]
    }

    /// What the paths count: `Sessions 13 Nov 2026 – 19 Nov 2026, every user.`
    private func scope(_ query: PageQuery) -> String {
        let range = query.days == 1 ? query.date.readable : "\(query.from.readable) – \(query.date.readable)"
        let filter = query.filter.isEmpty ? "every user" : query.filter.conditions.map(\.readable).joined(separator: "; ")
        let steps = paths.kind == .screen ? "the screens they showed" : "their events"
        return "Sessions \(range), \(filter)\(query.debug ? ", debug builds" : ""); steps are \(steps), in order."
    }
}

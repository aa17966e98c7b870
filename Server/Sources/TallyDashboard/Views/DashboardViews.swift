import Foundation
import Mustache
import TallyStore

/// The dashboard's templates (swift-mustache, files under `Resources/templates`), loaded
/// once, and what each page renders with them.
///
/// Templates hold the markup; values are escaped by Mustache (`{{value}}`) unless they are
/// HTML the dashboard made itself (`{{{sections}}}`: the list renderer escapes its text).
enum DashboardViews {
    /// Every template, by file name without `.mustache`.
    static let library: MustacheLibrary = {
        guard let folder = Bundle.module.url(forResource: "templates", withExtension: nil),
            let files = try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        else { preconditionFailure("the templates folder is missing from the TallyDashboard bundle") }
        var library = MustacheLibrary()
        for file in files where file.pathExtension == "mustache" {
            do {
                try library.register(String(contentsOf: file, encoding: .utf8), named: file.deletingPathExtension().lastPathComponent)
            } catch {
                preconditionFailure("the bundled template \(file.lastPathComponent) does not parse (its tests say why): \(error)")
            }
        }
        return library
    }()

    /// `template` rendered with `values`.
    static func render(_ template: String, _ values: [String: Any]) -> String {
        library.render(values, withTemplate: template) ?? ""
    }

    /// The whole page, as the first response: readable with scripts off. Its `<style>`
    /// elements and its script carry `styleNonce`.
    @MainActor
    static func page(_ page: DashboardPage, csrf: String, styleNonce: String) -> String {
        render(
            "page",
            [
                "appName": page.app.name, "appID": String(page.app.id.rawValue), "dateButton": dateButton(for: page),
                "hasAppMenu": page.apps.count > 1,
                "apps": page.apps.map { ["id": String($0.id.rawValue), "name": $0.name, "current": $0.id == page.app.id.production] },
                "debugButton": debugButton(for: page),
                "sectionsQuery": page.viewModel.query.value.with { $0.sheet = .sections }.queryString,
                "usersQuery": page.viewModel.query.value.with { $0.sheet = .users(prefix: "") }.queryString,
                "membersQuery": page.viewModel.query.value.with { $0.sheet = .members }.queryString, "isOwner": page.role.canManageMembers,
                "alertsQuery": page.viewModel.query.value.with { $0.sheet = .alerts }.queryString,
                "refreshing": page.viewModel.isRefreshing.value, "csrf": csrf, "sections": page.html(styleNonce: styleNonce),
                "styleNonce": styleNonce, "sheetSlot": page.sheetSlot, "filterBar": filterBar(for: page),
            ])
    }

    /// The filter bar: a chip per condition of the page's filter (its label opens the
    /// filter sheet on its property, its × removes it), the button that opens the filter
    /// sheet, the **Segments** menu (the saved segments, each applied by its link and deleted
    /// by its ×, and a form that saves the page's filter under a name, when it has one), the
    /// ad-hoc funnel's button, the paths sheet's (on the day's most shown screen), and the
    /// notice of a filter the address named that was left out. Every link leads to the page it shows, so it works without the script too; saving
    /// and deleting need it.
    @MainActor
    static func filterBar(for page: DashboardPage) -> String {
        let query = page.viewModel.query.value.with { $0.sheet = nil }
        let chips: [[String: Any]] = query.filter.conditions.enumerated().map { index, condition in
            [
                "index": index, "property": condition.property, "text": condition.readable,
                "removeQuery": query.with { $0.filter = $0.filter.removing(at: index) }.queryString,
                "editQuery": query.with { $0.sheet = .filter(property: condition.property) }.queryString,
            ]
        }
        let segments = savedSegments(for: page, query: query)
        var values: [String: Any] = [
            "chips": chips, "hasChips": !chips.isEmpty, "segments": segments, "hasSegments": !segments.isEmpty,
            "hasSegmentMenu": !segments.isEmpty || (!chips.isEmpty && page.role.canEdit), "maximumNameLength": SavedSegment.maximumNameLength,
            "canEdit": page.role.canEdit, "canSave": !chips.isEmpty && page.role.canEdit,
            "addQuery": query.with { $0.sheet = .filter(property: nil) }.queryString,
            "clearQuery": query.with { $0.filter = SegmentFilter() }.queryString,
            "funnelQuery": query.with { $0.sheet = .funnel(FunnelQuery()) }.queryString,
        ]
        let screen = page.viewModel.report.value?.pathStarts(.screen).first ?? ""
        values["pathsQuery"] = query.with { $0.sheet = .paths(PathQuery(start: screen)) }.queryString
        values["pathsValue"] = screen.isEmpty ? "paths" : "paths:" + screen
        if let notice = page.viewModel.filterNotice { values["notice"] = notice }
        return render("filter-bar", values)
    }

    /// The app's saved segments as the filter bar and the filter sheet list them: name,
    /// filter, its conditions as people read them, whether it is the filter of `query`, and
    /// the query of the page under it.
    @MainActor
    static func savedSegments(for page: DashboardPage, query: PageQuery) -> [[String: Any]] {
        page.viewModel.savedSegments.value.map { segment in
            [
                "name": segment.name, "filter": segment.filter.description,
                "text": segment.filter.conditions.map(\.readable).joined(separator: "; "), "current": segment.filter == query.filter,
                "query": query.with { $0.filter = segment.filter }.queryString,
            ]
        }
    }

    /// The button that opens the date picker, labelled with the range shown.
    @MainActor
    static func dateButton(for page: DashboardPage) -> String {
        let query = page.viewModel.query.value
        let label = query.days == 1 ? query.date.readable : "\(query.from.readable) – \(query.date.readable)"
        return render("date-button", ["query": query.with { $0.sheet = .date }.queryString, "label": label])
    }

    /// The switch between the app's production events and those of its debug builds: a link
    /// to the same page with the other.
    @MainActor
    static func debugButton(for page: DashboardPage) -> String {
        let query = page.viewModel.query.value
        return render("debug-button", ["query": query.with { $0.debug.toggle() }.queryString, "on": query.debug])
    }

    /// The sign-in page.
    static func login(csrf: String, user: String = "", error: String? = nil) -> String {
        var values: [String: Any] = ["csrf": csrf, "user": user]
        if let error { values["error"] = error }
        return render("login", values)
    }
}

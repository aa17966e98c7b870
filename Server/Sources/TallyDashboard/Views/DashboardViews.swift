import Foundation
import Mustache

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
                "debugButton": debugButton(for: page),
                "sectionsQuery": page.viewModel.query.value.with { $0.sheet = .sections }.queryString,
                "refreshing": page.viewModel.isRefreshing.value, "csrf": csrf, "sections": page.html(styleNonce: styleNonce),
                "styleNonce": styleNonce, "sheetSlot": page.sheetSlot,
            ])
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

import Foundation
import TallyEvent
import TallyStore

/// The search of the app's users: typing the start of an id lists the users whose id starts
/// with it (``UserSearchReport/resultLimit`` at most, in code point order), each with when
/// they were first seen and a link to their ``UserSheet``. An empty search lists the first
/// ids. The page reads it (``DashboardPage/loadSheetData(force:)``) as the prefix changes;
/// the answer to an older prefix shows, busy, until the newer one's comes.
@MainActor
struct UserSearchSheet {
    let page: DashboardPage
    /// The start of the ids searched.
    let prefix: String

    var html: String {
        let query = page.viewModel.query.value
        let base = query.with { $0.sheet = nil }
        // Without the script the form loads the page it names: the page's own, with the search.
        let hidden = (base.queryItems + [URLQueryItem(name: "sheet", value: "users")]).map { ["name": $0.name, "value": $0.value ?? ""] }
        var values: [String: Any] = ["prefix": prefix, "hidden": hidden, "maximumLength": Event.maximumFieldLength]
        // The answer for another prefix of the same page shows until this one's comes.
        if let shown = page.viewModel.userSearch, shown.query.with({ $0.sheet = nil }) == base {
            let isCurrent = shown.query == query
            values["busy"] = !isCurrent
            switch shown.report {
            case .found(let users):
                let zone = page.timeZone
                values["users"] = users.map { user in
                    ["id": user.id, "link": page.viewModel.userLink(user.id), "firstSeen": TimelineView.moment(user.firstSeen, in: zone)]
                }
                if isCurrent && users.isEmpty { values["message"] = prefix.isEmpty ? "No users yet." : "No user id starts with “\(prefix)”." }
                if users.count >= UserSearchReport.resultLimit {
                    values["more"] = "The first \(UserSearchReport.resultLimit) ids in order: type more of the id to narrow them down."
                }
            case .failed(let reason):
                values["error"] = reason
            }
        } else {
            values["busy"] = true
            values["message"] = "Searching…"
        }
        return SheetTarget.frame("users", title: "Users", body: DashboardViews.render("user-search-sheet", values), page: page)
    }
}

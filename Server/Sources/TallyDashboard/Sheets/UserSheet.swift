import Foundation
import TallyStore

/// One user's timeline: what the store knows of them (first seen, the version and platform
/// of their newest event, their user properties) and their events under the page's filter,
/// by day in the page's time zone and by session, newest first. "Older events" reads the
/// next page, up to ``LoadedTimeline/maximumEvents``. The page reads it
/// (``DashboardPage/loadSheetData(force:)``) when the sheet opens and when its query changes.
/// A user the app does not have is said so, not an error; under the oldest event, when the
/// app no longer keeps the user's earlier raw events (its retention), the sheet says since when
/// they are kept. An owner also gets a link that downloads everything stored about the user and
/// a form that deletes it, after the browser asks to confirm (see ``UserDataRoutes``).
@MainActor
struct UserSheet {
    let page: DashboardPage
    /// The user's id, as the app sends it.
    let id: String

    var html: String {
        let query = page.viewModel.query.value
        var values: [String: Any] = ["id": id]
        if page.role.canManageUserData {
            // Percent-encoded whole but for letters and digits, as `UserDataRoutes` reads it.
            let encoded = id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            values["manage"] = ["path": "/apps/\(page.app.id.rawValue)/users/\(encoded)"]
        }
        values.merge(searchLink) { $1 }
        if let shown = page.viewModel.userTimeline, shown.query == query {
            switch shown.report {
            case .read(let timeline): values.merge(self.values(of: timeline, query: query)) { $1 }
            case .unknownUser: values["unknown"] = true
            case .failed(let reason): values["error"] = reason
            }
        } else {
            values["reading"] = true
        }
        return SheetTarget.frame("user", title: id, body: DashboardViews.render("user-sheet", values), page: page)
    }

    /// What the template shows of a timeline read.
    private func values(of timeline: LoadedTimeline, query: PageQuery) -> [String: Any] {
        let zone = page.timeZone
        let events = page.viewModel.userTimelineEvents ?? TimelineView.html(timeline.events, in: zone)
        page.viewModel.userTimelineEvents = events
        var values: [String: Any] = [
            "timeline": true, "firstSeen": TimelineView.moment(timeline.user.firstSeen, in: zone),
            "version": Self.shown(timeline.appVersion), "platform": Self.shown(timeline.platform),
            "properties": timeline.properties.sorted { $0.key < $1.key }.map { ["name": $0.key, "value": $0.value] },
            "events": events, "count": timeline.events.count, "zone": zone.identifier,
        ]
        var scope: [String] = []
        if !query.filter.isEmpty { scope.append("the events that match \(query.filter.conditions.map(\.readable).joined(separator: "; "))") }
        if query.debug { scope.append("debug builds") }
        if !scope.isEmpty { values["scope"] = "Only \(scope.joined(separator: ", of ")): the page's filter." }
        if timeline.events.isEmpty && timeline.next == nil {
            values["empty"] = query.filter.isEmpty ? "No events." : "No events of this user match the page's filter."
        }
        if timeline.canReadOlder, let next = timeline.next { values["older"] = next.description }
        if timeline.isAtBound { values["bound"] = LoadedTimeline.maximumEvents }
        if let keptSince = timeline.rawEventsKeptSince, timeline.next == nil {
            values["keptSince"] = TimelineView.moment(keptSince, in: zone)
        }
        if let failure = timeline.failure { values["error"] = failure }
        return values
    }

    /// The link back to the search sheet, on the prefix last searched.
    private var searchLink: [String: Any] {
        var prefix = ""
        if case .users(let last)? = page.viewModel.userSearch?.query.sheet { prefix = last }
        let query = page.viewModel.query.value.with { $0.sheet = .users(prefix: prefix) }
        return ["searchQuery": query.queryString, "searchValue": "users:" + prefix]
    }

    /// A version or platform as the header shows it.
    private static func shown(_ text: String?) -> String {
        guard let text else { return "—" }
        return text.isEmpty ? "unknown" : text
    }
}

public import Componentry
import Foundation

/// The page's sheets, reached through the ``Componentry/Mediator`` by URL — the date
/// picker at `tally://sheet/date`, the section manager at `tally://sheet/sections`, a
/// metric's detail at `tally://sheet/metric?key=dau`, the filter sheet at
/// `tally://sheet/filter[?property=plan]`, the ad-hoc funnel at
/// `tally://sheet/funnel?steps=login,bill_created&window=1h&breakdown=plan`, a user's
/// timeline at `tally://sheet/user?id=ana` (the id percent-encoded), the user search at
/// `tally://sheet/users[?prefix=an]` and the paths of a screen or an event at
/// `tally://sheet/paths?start=Home&kind=screen&direction=after&depth=3` (the start
/// percent-encoded), the app's members at `tally://sheet/members` and its alerts and annotations at
/// `tally://sheet/alerts` — so the page opens a sheet by its address, as a deep link does, and
/// knows none of their types.
///
/// Each action takes the page (parameter `page`) and returns the sheet's HTML.
public final class SheetTarget: MediatorTarget {
    public static let name = "sheet"

    public init(mediator: Mediator) {}

    public static func registerActions(in table: inout MediatorActionTable<SheetTarget>) {
        table.mainActorAction("date", allowsURLCalls: true) { _, parameters in
            DateSheet(page: try parameters.value("page")).html
        }
        table.mainActorAction("sections", allowsURLCalls: true) { _, parameters in
            SectionManagerSheet(page: try parameters.value("page")).html
        }
        table.mainActorAction("metric", allowsURLCalls: true) { _, parameters in
            try MetricSheet(page: parameters.value("page"), key: parameters.value("key")).html
        }
        table.mainActorAction("filter", allowsURLCalls: true) { _, parameters in
            let property: String = try parameters.value("property", default: "")
            return FilterSheet(page: try parameters.value("page"), property: property.isEmpty ? nil : property).html
        }
        table.mainActorAction("funnel", allowsURLCalls: true) { _, parameters in
            var fields: [String: String] = [:]
            for name in ["steps", "window", "breakdown"] {
                let value: String = try parameters.value(name, default: "")
                if !value.isEmpty { fields[name] = value }
            }
            guard let funnel = try? FunnelQuery(fields) else {
                throw MediatorError.badParameter(name: "steps", expected: "a funnel's steps, window and breakdown", found: nil)
            }
            return FunnelSheet(page: try parameters.value("page"), funnel: funnel).html
        }
        table.mainActorAction("user", allowsURLCalls: true) { _, parameters in
            try UserSheet(page: parameters.value("page"), id: parameters.value("id")).html
        }
        table.mainActorAction("users", allowsURLCalls: true) { _, parameters in
            try UserSearchSheet(page: parameters.value("page"), prefix: parameters.value("prefix", default: "")).html
        }
        table.mainActorAction("paths", allowsURLCalls: true) { _, parameters in
            var fields: [String: String] = [:]
            for name in ["start", "kind", "direction", "depth"] {
                let value: String = try parameters.value(name, default: "")
                if !value.isEmpty { fields[name] = value }
            }
            guard let paths = try? PathQuery(fields) else {
                throw MediatorError.badParameter(name: "start", expected: "a path's start, kind, direction and depth", found: nil)
            }
            return PathsSheet(page: try parameters.value("page"), paths: paths).html
        }
        table.mainActorAction("members", allowsURLCalls: true) { _, parameters in
            MembersSheet(page: try parameters.value("page")).html
        }
        table.mainActorAction("alerts", allowsURLCalls: true) { _, parameters in
            AlertsSheet(page: try parameters.value("page")).html
        }
    }

    /// The sheet around `body`: its title and the close link.
    @MainActor
    static func frame(_ kind: String, title: String, body: String, page: DashboardPage) -> String {
        DashboardViews.render(
            "sheet",
            [
                "kind": kind, "title": title, "body": body,
                "closeQuery": page.viewModel.query.value.with { $0.sheet = nil }.queryString,
            ])
    }
}

extension Mediator {
    /// The HTML of `sheet` for `page`: the typed facade of ``SheetTarget``, called by the
    /// sheet's URL, so the page knows the sheets only by their addresses.
    @MainActor
    func sheet(_ sheet: PageQuery.Sheet, of page: DashboardPage) throws(MediatorError) -> String {
        try call(sheet.url, ["page": page])
    }

    /// The dashboard's mediator, with the sheets registered.
    public static let dashboard: Mediator = {
        let mediator = Mediator()
        // The only registration of this name on a new mediator: it cannot be refused.
        try? mediator.register(SheetTarget.self, caching: .cached)
        return mediator
    }()
}

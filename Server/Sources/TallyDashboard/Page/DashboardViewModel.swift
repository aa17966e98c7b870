public import Componentry
import Foundation
public import TallyStore

/// The state of one open dashboard, as observable values: the page and its sections react
/// to changes of these.
///
/// Sections read it through their ``Componentry/ComponentContext``; the page sets it from
/// what the browser asks and what the store answers.
@MainActor
public final class DashboardViewModel {
    /// How long the search box waits after the last keystroke before the sections filter.
    public static let searchDelay = CommitInterval.milliseconds(200)

    /// The layout the page was built from.
    public let layout: DashboardLayout
    /// What the page shows: the date range, the comparison, the open sheet.
    public let query: Observable<PageQuery>
    /// The sections' order and the hidden ones: the user's choice, saved per user.
    public let order: Observable<ComponentOrder>
    /// The data of the shown range, once loaded.
    public let report = Observable<DayReport?>(nil)
    /// Counts the reports shown: sections keep what they computed from one until the next.
    var reportVersion = 0
    /// The search box's text, lowercased, committed ``searchDelay`` after the last change:
    /// only sections that match it show.
    public let search = Observable("", timing: .debounce(searchDelay))
    /// Whether a refresh is reading the store: the reload button is off meanwhile.
    public let isRefreshing = Observable(false)
    /// Why the last refresh read nothing, shown by sections that have no numbers yet.
    public internal(set) var loadError: String?
    /// The sections whose ranked lists show every row, not only the first
    /// ``SectionComponent/rowsShown``: each section sets its own (its "Show all").
    public let expandedSections = Observable<Set<String>>([])
    /// The page's copies of its headline numbers, by key: what the tiles show, kept in step
    /// with every other copy of the same number by the dashboard's sync channel.
    public internal(set) var headlines: [String: HeadlineMetric] = [:]
    /// The open metric sheet's copy of its number.
    public internal(set) var detail: DetailMetric?
    /// The app's saved segments, by name: the filter bar lists them, and redraws when they
    /// change (a segment saved or deleted from this page).
    public let savedSegments = Observable<[SavedSegment]>([])
    /// Why the filter the page's address named was left out (it does not read, or names a
    /// property the app does not segment by); the filter bar says so until the filter changes.
    public internal(set) var filterNotice: String?
    /// Values seen lately per property, most frequent first: the filter sheet's suggestions,
    /// read when it first opens.
    var filterSuggestions: [String: [String]]?
    /// The ad-hoc funnel sheet's counts, and the page query (range, filter, funnel) they answer.
    var adHocFunnel: (query: PageQuery, report: FunnelReport)?

    /// The user sheet's timeline as read so far, and the page query (user, filter) it answers.
    var userTimeline: (query: PageQuery, report: UserTimelineReport)? {
        didSet { userTimelineEvents = nil }
    }
    /// The HTML of ``userTimeline``'s events, drawn once per read: the sheet is drawn again
    /// with each live update, its events only when more are read.
    var userTimelineEvents: String?
    /// The user search's answer, and the page query (prefix) it answers.
    var userSearch: (query: PageQuery, report: UserSearchReport)?
    /// The app's members as the members sheet lists them; `nil` until read.
    var members: [AppMember]?
    /// The alerts sheet's stored rules, latest firings and the range's annotations; `nil` until read.
    var alerts: AlertsSheet.Data?
    /// The paths sheet's counts, and the page query (range, filter, paths) they answer.
    var paths: (query: PageQuery, report: PathsReport)?

    /// The address of the metric sheet of `key`, for the tiles' links.
    ///
    /// Links are kept per key until the query changes: building them (percent-encoding
    /// above all) was a third of a live update's time in its profile.
    func metricLink(_ key: String) -> String {
        sheetLink("metric", key) { "&sheet=metric&metric=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") }
    }

    /// The address of the user sheet of the user `id`, for the links of every user id shown:
    /// the page's, with `sheet=user&user=ID`. Kept as ``metricLink(_:)``'s are.
    func userLink(_ id: String) -> String {
        sheetLink("user", id) { "&sheet=user&user=" + PageQuery.encoded($0) }
    }

    /// The address of the paths sheet of the screen `start`, for the Screens section's rows:
    /// the page's, with `sheet=paths&start=NAME&kind=screen`. Kept as ``metricLink(_:)``'s are.
    func pathsLink(_ start: String) -> String {
        sheetLink("paths", start) { "&sheet=paths&start=" + PageQuery.encoded($0) + "&kind=screen" }
    }

    /// The address of the page with a sheet of `kind` on `value`: the page's without its
    /// sheet, then `parameters(value)`; kept per kind and value until the query changes.
    private func sheetLink(_ kind: String, _ value: String, _ parameters: (String) -> String) -> String {
        let query = self.query.value
        if sheetLinks.query != query || sheetLinks.links.count >= 1_024 {
            sheetLinks = (query, "?" + query.with { $0.sheet = nil }.queryString, [:])
        }
        let key = SheetLinkKey(kind: kind, value: value)
        if let link = sheetLinks.links[key] { return link }
        let link = sheetLinks.prefix + parameters(value)
        sheetLinks.links[key] = link
        return link
    }

    /// A link ``sheetLink(_:_:_:)`` keeps: its sheet's kind and value.
    private struct SheetLinkKey: Hashable {
        var kind: String
        var value: String
    }

    /// The query ``sheetLink(_:_:_:)`` last built links for, the page's address without a
    /// sheet, and the links.
    private var sheetLinks: (query: PageQuery?, prefix: String, links: [SheetLinkKey: String]) = (nil, "", [:])

    /// Creates the state of a page showing `query`, its sections in `order` (the layout's
    /// own order when `nil`).
    public init(layout: DashboardLayout, query: PageQuery, order: ComponentOrder? = nil) {
        self.layout = layout
        self.query = Observable(query)
        self.order = Observable(order ?? ComponentOrder(layout.sections.map(\.id)))
    }
}

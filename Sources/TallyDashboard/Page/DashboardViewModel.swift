public import Componentry
import Foundation

/// The state of one open dashboard, as observable values: the page and its sections react
/// to changes of these.
///
/// Sections read it through their ``Componentry/ComponentContext``; the page sets it from
/// what the browser asks and what the store answers.
@MainActor
public final class DashboardViewModel {
    /// How long the search box waits after the last keystroke before the sections filter.
    public static let searchDelay = Duration.milliseconds(200)

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
    /// The page's copies of its headline numbers, by key: what the tiles show, kept in step
    /// with every other copy of the same number by the dashboard's sync channel.
    public internal(set) var headlines: [String: HeadlineMetric] = [:]
    /// The open metric sheet's copy of its number.
    public internal(set) var detail: DetailMetric?

    /// The address of the metric sheet of `key`, for the tiles' links.
    func metricLink(_ key: String) -> String {
        let query = self.query.value
        if metricLinkBase?.query != query {
            metricLinkBase = (query, "?" + query.with { $0.sheet = nil }.queryString + "&sheet=metric&metric=")
        }
        return (metricLinkBase?.prefix ?? "") + (key.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
    }

    /// The query ``metricLink(_:)`` last built its prefix for, and the prefix.
    private var metricLinkBase: (query: PageQuery, prefix: String)?

    /// Creates the state of a page showing `query`, its sections in `order` (the layout's
    /// own order when `nil`).
    public init(layout: DashboardLayout, query: PageQuery, order: ComponentOrder? = nil) {
        self.layout = layout
        self.query = Observable(query)
        self.order = Observable(order ?? ComponentOrder(layout.sections.map(\.id)))
    }
}

public import Foundation
public import TallyEvent
public import TallyStore

/// What a dashboard URL asks for:
/// `/apps/{id}?date=…&from=…&compare=1&tz=…&debug=1&filters=…&sheet=…&metric=…`.
///
/// The same query names the page's state in the browser's address bar (the page keeps it
/// current as the user changes the date, the filter or opens a sheet), so a reload or a
/// shared link shows the same page.
public struct PageQuery: Hashable, Sendable {
    /// The longest range shown, in days.
    public static let maximumDays = 366

    /// The last day shown: headline numbers are this day's.
    public var date: CalendarDay
    /// The first day shown: charts span ``from`` through ``date``.
    public var from: CalendarDay
    /// Whether to show the previous period beside this one.
    public var compare: Bool
    /// The time zone whose days these are; the app's when `nil`.
    public var timeZone: TimeZone?
    /// Whether to show the app's events from debug builds (its ``AppID/debug`` id) instead of
    /// production.
    public var debug: Bool
    /// The segment every section counts: `filters=` in Plausible's syntax
    /// (``TallyStore/SegmentFilter/init(parsing:)``); empty for every event.
    public var filter: SegmentFilter
    /// The open sheet, if any.
    public var sheet: Sheet?

    /// A sheet of the page, opened through the mediator by its URL.
    public enum Sheet: Hashable, Sendable {
        /// The date picker.
        case date
        /// Reorder and hide sections.
        case sections
        /// One metric's daily chart, breakdown and CSV.
        case metric(String)
        /// Add a condition to the filter: on the property named, or with a property to pick.
        case filter(property: String?)
        /// An ad-hoc funnel over the page's range and filter.
        case funnel(FunnelQuery)
        /// One user's timeline, by the id the app sends: their events under the page's
        /// filter, by day and session.
        case user(String)
        /// The search of the app's users by the start of their id.
        case users(prefix: String)
        /// Where sessions went after a screen or an event, or came from before it.
        case paths(PathQuery)
        /// The app's members and their roles, which its owners change (`tally://sheet/members`).
        case members
        /// The app's alert rules, the alerts fired lately and the annotations of the page's
        /// range, which its editors change (`tally://sheet/alerts`).
        case alerts

        /// The mediator URL that opens the sheet: `tally://sheet/metric?key=dau`,
        /// `tally://sheet/filter?property=plan`, `tally://sheet/funnel?steps=a,b&window=1h`,
        /// `tally://sheet/user?id=ana`, `tally://sheet/users?prefix=an`,
        /// `tally://sheet/paths?start=Home&kind=screen&direction=after&depth=3`.
        public var url: URL {
            var components = URLComponents()
            components.scheme = "tally"
            components.host = "sheet"
            switch self {
            case .date: components.path = "/date"
            case .sections: components.path = "/sections"
            case .metric(let key):
                components.path = "/metric"
                components.queryItems = [URLQueryItem(name: "key", value: key)]
            case .filter(let property):
                components.path = "/filter"
                components.queryItems = property.map { [URLQueryItem(name: "property", value: $0)] }
            case .funnel(let funnel):
                components.path = "/funnel"
                let items = funnel.queryItems
                components.queryItems = items.isEmpty ? nil : items
            case .user(let id):
                components.path = "/user"
                components.percentEncodedQueryItems = [Self.encodedItem("id", id)]
            case .users(let prefix):
                components.path = "/users"
                components.percentEncodedQueryItems = prefix.isEmpty ? nil : [Self.encodedItem("prefix", prefix)]
            case .paths(let paths):
                components.path = "/paths"
                components.percentEncodedQueryItems = [
                    Self.encodedItem("start", paths.start), URLQueryItem(name: "kind", value: paths.kind.rawValue),
                    URLQueryItem(name: "direction", value: paths.direction.rawValue), URLQueryItem(name: "depth", value: String(paths.depth)),
                ]
            case .members: components.path = "/members"
            case .alerts: components.path = "/alerts"
            }
            return components.url ?? URL(fileURLWithPath: "/")
        }

        /// A query item of `value` with every byte but letters and digits percent-encoded: a
        /// user id may hold any text (`&`, `=`, `+`, `#`…), and reads back the same.
        private static func encodedItem(_ name: String, _ value: String) -> URLQueryItem {
            URLQueryItem(name: name, value: value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        }

        /// What sort of sheet it is, as `sheet=` names it: `date`, `metric`, `funnel`…
        var kind: String { queryItems.first?.value ?? "" }

        /// The sheet's parameters in a page's address, from `sheet=`.
        var queryItems: [URLQueryItem] {
            switch self {
            case .date: [URLQueryItem(name: "sheet", value: "date")]
            case .sections: [URLQueryItem(name: "sheet", value: "sections")]
            case .metric(let key): [URLQueryItem(name: "sheet", value: "metric"), URLQueryItem(name: "metric", value: key)]
            case .filter(let property):
                [URLQueryItem(name: "sheet", value: "filter")] + (property.map { [URLQueryItem(name: "property", value: $0)] } ?? [])
            case .funnel(let funnel): [URLQueryItem(name: "sheet", value: "funnel")] + funnel.queryItems
            case .user(let id): [URLQueryItem(name: "sheet", value: "user"), URLQueryItem(name: "user", value: id)]
            case .users(let prefix):
                [URLQueryItem(name: "sheet", value: "users")] + (prefix.isEmpty ? [] : [URLQueryItem(name: "prefix", value: prefix)])
            case .paths(let paths): [URLQueryItem(name: "sheet", value: "paths")] + paths.queryItems
            case .members: [URLQueryItem(name: "sheet", value: "members")]
            case .alerts: [URLQueryItem(name: "sheet", value: "alerts")]
            }
        }
    }

    /// The preset ranges of the date picker.
    public enum Preset: String, CaseIterable, Sendable {
        case today, yesterday
        case last7 = "7d"
        case last30 = "30d"
        case last90 = "90d"
        case month

        /// The label shown.
        public var label: String {
            switch self {
            case .today: "Today"
            case .yesterday: "Yesterday"
            case .last7: "Last 7 days"
            case .last30: "Last 30 days"
            case .last90: "Last 90 days"
            case .month: "This month"
            }
        }

        /// The range, given what day `today` is.
        public func range(today: CalendarDay) -> ClosedRange<CalendarDay> {
            switch self {
            case .today: today...today
            case .yesterday: today.adding(-1)...today.adding(-1)
            case .last7: today.adding(-6)...today
            case .last30: today.adding(-29)...today
            case .last90: today.adding(-89)...today
            case .month: today.firstOfMonth...today
            }
        }
    }

    /// A page of the one day `date`.
    public init(
        date: CalendarDay, from: CalendarDay? = nil, compare: Bool = false, timeZone: TimeZone? = nil, debug: Bool = false,
        filter: SegmentFilter = SegmentFilter(), sheet: Sheet? = nil
    ) {
        self.date = date
        self.from = min(from ?? date, date)
        self.compare = compare
        self.timeZone = timeZone
        self.debug = debug
        self.filter = filter
        self.sheet = sheet
    }

    /// Reads a URL's query as ``init(_:today:)`` does, except that a `filters` that does not
    /// read is left out rather than refused: the page then shows every event, and
    /// `ignoredFilter` says why.
    ///
    /// - Throws: ``PageQueryError`` naming another parameter that is not what the page takes.
    public static func reading(_ parameters: [String: String], today: CalendarDay) throws(PageQueryError) -> (
        query: PageQuery, ignoredFilter: String?
    ) {
        do throws(PageQueryError) {
            return (try PageQuery(parameters, today: today), nil)
        } catch .badFilter(let reason) {
            var rest = parameters
            rest["filters"] = nil
            return (try PageQuery(rest, today: today), reason)
        }
    }

    /// Reads a URL's query; a missing `date` is `today`.
    ///
    /// - Throws: ``PageQueryError`` naming the parameter that is not what the page takes.
    public init(_ parameters: [String: String], today: CalendarDay) throws(PageQueryError) {
        func day(_ name: String) throws(PageQueryError) -> CalendarDay? {
            guard let text = parameters[name] else { return nil }
            guard let day = CalendarDay(shown: text) else { throw .badParameter(name, "a day as YYYY-MM-DD, 1970 to 9999") }
            return day
        }
        let date = try day("date") ?? today
        let from = try day("from") ?? date
        guard from <= date else { throw .badParameter("from", "a day no later than date") }
        guard from.distance(to: date) < Self.maximumDays else { throw .badParameter("from", "at most \(Self.maximumDays) days before date") }
        let sheet: Sheet?
        switch parameters["sheet"] {
        case nil: sheet = nil
        case "date": sheet = .date
        case "sections": sheet = .sections
        case "metric":
            guard let key = parameters["metric"], !key.isEmpty, key.count <= 200 else { throw .badParameter("metric", "a metric key") }
            sheet = .metric(key)
        case "filter":
            let property = parameters["property"].flatMap { $0.isEmpty ? nil : $0 }
            guard (property?.count ?? 0) <= 100 else { throw .badParameter("property", "a property name") }
            sheet = .filter(property: property)
        case "funnel": sheet = .funnel(try FunnelQuery(parameters))
        case "user", "users":
            // `sheet=user` without an id is the search.
            let id = parameters["user"] ?? ""
            let prefix = parameters["prefix"] ?? ""
            guard id.count <= Self.maximumUserText else { throw .badParameter("user", "a user id") }
            guard prefix.count <= Self.maximumUserText else { throw .badParameter("prefix", "the start of a user id") }
            sheet = parameters["sheet"] == "user" && !id.isEmpty ? .user(id) : .users(prefix: prefix)
        case "paths": sheet = .paths(try PathQuery(parameters))
        case "members": sheet = .members
        case "alerts": sheet = .alerts
        default: throw .badParameter("sheet", "date, sections, metric, filter, funnel, user, users, paths, members or alerts")
        }
        var timeZone: TimeZone?
        if let identifier = parameters["tz"] {
            guard identifier.count <= 64, let zone = TimeZone(identifier: identifier) else {
                throw .badParameter("tz", "an IANA time zone such as Europe/Paris")
            }
            timeZone = zone
        }
        var filter = SegmentFilter()
        if let text = parameters["filters"] {
            guard text.count <= Self.maximumFilterLength else {
                throw .badFilter("the filter is longer than \(Self.maximumFilterLength) characters")
            }
            do {
                filter = try SegmentFilter(parsing: text)
            } catch {
                throw .badFilter("\(error)")
            }
        }
        func flag(_ name: String) -> Bool { ["1", "on", "true"].contains(parameters[name] ?? "") }
        self.init(
            date: date, from: from, compare: flag("compare"), timeZone: timeZone, debug: flag("debug"), filter: filter, sheet: sheet)
    }

    /// The longest `filters` text a page reads.
    public static let maximumFilterLength = 4_000
    /// The most characters of a user id or a search's prefix a page reads. No id is longer
    /// than ``TallyEvent/Event/maximumFieldLength`` bytes, so longer text names nobody: up to
    /// this it is shown as no user, past it refused.
    public static let maximumUserText = 1_024

    /// The number of days shown.
    public var days: Int { from.distance(to: date) + 1 }

    /// The scope of the page's `days` (its range unless given) of `app`'s events, or of its
    /// debug builds' when the page shows those, in the page's time zone and under its filter.
    public func scope(of app: AppID, days: ClosedRange<CalendarDay>? = nil) -> ReadScope {
        ReadScope(app: debug ? app.debug : app.production, days: days ?? from...date, timeZone: timeZone, filter: filter)
    }

    /// The same length of time just before this range: what "compare" shows.
    public var previousPeriod: ClosedRange<CalendarDay> { from.adding(-days)...date.adding(-days) }

    /// The query as a URL's, in a fixed order, without defaults:
    /// `date=2026-11-23&filters=platform==ios&sheet=date`. The filter stays readable: only
    /// what a query value cannot hold is percent-encoded (`|` as `%7C`).
    public var queryString: String {
        queryItems.map { "\($0.name)=\(Self.encoded($0.value ?? ""))" }.joined(separator: "&")
    }

    /// The query's parameters, in ``queryString``'s order, without defaults.
    var queryItems: [URLQueryItem] {
        var items = [URLQueryItem(name: "date", value: date.description)]
        if from != date { items.append(URLQueryItem(name: "from", value: from.description)) }
        if compare { items.append(URLQueryItem(name: "compare", value: "1")) }
        if let timeZone { items.append(URLQueryItem(name: "tz", value: timeZone.tallyIdentifier)) }
        if debug { items.append(URLQueryItem(name: "debug", value: "1")) }
        if !filter.isEmpty { items.append(URLQueryItem(name: "filters", value: filter.description)) }
        return items + (sheet?.queryItems ?? [])
    }

    /// The characters a query value keeps as they are: RFC 3986's query characters but `&`,
    /// `+` (which forms read as a space) and `%`.
    private static let valueCharacters = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$'()*,;=:@/?")

    /// `value` percent-encoded for a query.
    static func encoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: valueCharacters) ?? ""
    }

    /// This query with `change` applied.
    public func with(_ change: (inout PageQuery) -> Void) -> PageQuery {
        var copy = self
        change(&copy)
        return copy
    }
}

/// A dashboard URL whose query the page cannot show.
public enum PageQueryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The parameter `name` is not `expected`.
    case badParameter(String, String)
    /// `filters` does not read as a filter, for the reason given.
    case badFilter(String)

    public var description: String {
        switch self {
        case .badParameter(let name, let expected): "\(name) must be \(expected)"
        case .badFilter(let reason): "filters: \(reason)"
        }
    }
}

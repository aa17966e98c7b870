public import Foundation
public import TallyEvent

/// What a dashboard URL asks for: `/apps/{id}?date=…&from=…&compare=1&tz=…&debug=1&sheet=…&metric=…`.
///
/// The same query names the page's state in the browser's address bar (the page keeps it
/// current as the user changes the date or opens a sheet), so a reload or a shared link
/// shows the same page.
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
    public var timeZone: String?
    /// Whether to show the app's events from debug builds (its ``AppID/debug`` id) instead of
    /// production.
    public var debug: Bool
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

        /// The mediator URL that opens the sheet: `tally://sheet/metric?key=dau`.
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
            }
            return components.url ?? URL(fileURLWithPath: "/")
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
        date: CalendarDay, from: CalendarDay? = nil, compare: Bool = false, timeZone: String? = nil, debug: Bool = false, sheet: Sheet? = nil
    ) {
        self.date = date
        self.from = min(from ?? date, date)
        self.compare = compare
        self.timeZone = timeZone
        self.debug = debug
        self.sheet = sheet
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
        default: throw .badParameter("sheet", "date, sections or metric")
        }
        if let zone = parameters["tz"], TimeZone(identifier: zone) == nil || zone.count > 64 {
            throw .badParameter("tz", "an IANA time zone such as Europe/Paris")
        }
        func flag(_ name: String) -> Bool { ["1", "on", "true"].contains(parameters[name] ?? "") }
        self.init(date: date, from: from, compare: flag("compare"), timeZone: parameters["tz"], debug: flag("debug"), sheet: sheet)
    }

    /// The number of days shown.
    public var days: Int { from.distance(to: date) + 1 }

    /// The same length of time just before this range: what "compare" shows.
    public var previousPeriod: ClosedRange<CalendarDay> { from.adding(-days)...date.adding(-days) }

    /// The query as a URL's, in a fixed order, without defaults: `date=2026-11-23&sheet=date`.
    public var queryString: String {
        var items = [URLQueryItem(name: "date", value: date.description)]
        if from != date { items.append(URLQueryItem(name: "from", value: from.description)) }
        if compare { items.append(URLQueryItem(name: "compare", value: "1")) }
        if let timeZone { items.append(URLQueryItem(name: "tz", value: timeZone)) }
        if debug { items.append(URLQueryItem(name: "debug", value: "1")) }
        switch sheet {
        case nil: break
        case .date: items.append(URLQueryItem(name: "sheet", value: "date"))
        case .sections: items.append(URLQueryItem(name: "sheet", value: "sections"))
        case .metric(let key):
            items.append(URLQueryItem(name: "sheet", value: "metric"))
            items.append(URLQueryItem(name: "metric", value: key))
        }
        var components = URLComponents()
        components.queryItems = items
        return components.percentEncodedQuery ?? ""
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

    public var description: String {
        switch self {
        case .badParameter(let name, let expected): "\(name) must be \(expected)"
        }
    }
}

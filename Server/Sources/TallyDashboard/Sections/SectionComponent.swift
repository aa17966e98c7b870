public import Componentry
public import ComponentryList
import Foundation
import TallyEvent
import TallyStore

/// One section of the dashboard: a ``Componentry/Component`` of the page (created by the
/// factory from the layout, driven by the manager) and a ``ComponentryList/ListComponent``
/// (its tiles laid out, rendered and diffed into DOM patches).
///
/// It owns its business: from the page's report it picks its own numbers, as its
/// ``DashboardLayout/Content`` says, and knows nothing of other sections.
@MainActor
public final class SectionComponent: Component, ListComponent, ResponderEventHandling {
    /// The name a section answers to when registered by type; ``DashboardPage`` registers
    /// each section of its layout under the section's own id instead.
    public nonisolated static let identifier = "section"

    /// The section of the layout this component shows.
    public let section: DashboardLayout.Section
    /// The page, held weakly: the page owns its sections.
    public weak var context: (any ComponentContext<DashboardViewModel>)?

    /// Creates the component of `section` for the page `context` stands for.
    public init(section: DashboardLayout.Section, context: any ComponentContext<DashboardViewModel>) {
        self.section = section
        self.context = context
    }

    /// A section registered by type has no configuration: it shows an empty section named
    /// ``identifier``.
    public convenience init(context: any ComponentContext<DashboardViewModel>) {
        self.init(section: DashboardLayout.Section(id: Self.identifier, title: "", content: .metrics([])), context: context)
    }

    public var id: String { section.id }

    /// Events raised on the section's elements go on to the page, except "show all", which
    /// the section takes (``registerHandlers(in:)``).
    public var nextInChain: (any Responder)? { context as? any Responder }

    /// A section takes its own "Show all": its lists are its business, and the page redraws
    /// the sections whose lists changed.
    public static func registerHandlers(in table: inout ResponderHandlerTable<SectionComponent>) {
        table.on(.expandList) { section, expands in
            guard let expanded = section.context?.viewModel.expandedSections else { return }
            if expands { expanded.value.insert(section.id) } else { expanded.value.remove(section.id) }
        }
    }

    /// How many rows a ranked list shows until its "Show all".
    public static let rowsShown = 10

    public var items: [Tile] {
        guard let viewModel = context?.viewModel else { return [] }
        guard let report = viewModel.report.value else {
            return [Tile(id: "empty:\(id)", label: viewModel.loadError ?? "Loading…", value: "", style: .empty)]
        }
        let expanded = viewModel.expandedSections.value.contains(id)
        if let cached, cached.version == viewModel.reportVersion, cached.expanded == expanded { return cached.tiles }
        var tiles = Self.tiles(of: section, in: report)
        // The first rows of each list, unless expanded; headings and headlines stay.
        (hiddenRows, isLong) = (0, false)
        var rows = 0
        tiles = tiles.filter { tile in
            guard case .row = tile.style else {
                rows = 0
                return true
            }
            rows += 1
            isLong = isLong || rows > Self.rowsShown
            if !expanded, rows > Self.rowsShown { hiddenRows += 1 }
            return expanded || rows <= Self.rowsShown
        }
        if tiles.isEmpty { tiles = [Tile(id: "empty:\(id)", label: emptyText(of: report), value: "", style: .empty)] }
        cached = (viewModel.reportVersion, expanded, tiles)
        return tiles
    }

    /// The tiles of the report shown, by its version and whether its lists show every row:
    /// a page renders, searches and syncs from them several times per report.
    private var cached: (version: Int, expanded: Bool, tiles: [Tile])?
    /// The rows the lists leave out until "Show all", and whether a list is longer than
    /// ``rowsShown``.
    private var hiddenRows = 0
    private var isLong = false

    /// What the section says when the range has nothing for it.
    private func emptyText(of report: DayReport) -> String {
        switch section.content {
        case .screens: "No screen was viewed in this range."
        case .topEvents, .metrics, .app: "No events in this range."
        case .versions: "No users in this range."
        case .liveFeed: "No events yet: they show here as they arrive."
        case .funnel: "Nobody took the first step in this range."
        case .retention: "No users to follow back yet."
        case .revenue:
            // The chart below the tiles spans the trend's days, which may hold purchases.
            if let days = Self.chartedRevenue(of: report)?.dates.count {
                "No purchases in this range; the chart shows the last \(days) days."
            } else {
                "No purchases in this range."
            }
        case .dataHealth: "Nothing was sent on this day."
        }
    }

    public var header: Cell? { Cell("title", ["title": section.title]) }

    /// The App section's trend chart, Data health's "unreliable" flag, a funnel's summary,
    /// or the "Show all" of a ranked list.
    public var footer: Cell? {
        guard let viewModel = context?.viewModel else { return nil }
        _ = items  // counts the rows left out
        let expanded = viewModel.expandedSections.value.contains(id)
        if let cachedFooter, cachedFooter.version == viewModel.reportVersion, cachedFooter.expanded == expanded {
            return cachedFooter.cell
        }
        let cell: Cell? =
            if hiddenRows > 0 {
                Cell("more", ["text": "Show all (\(hiddenRows) more)", "value": "on"])
            } else if expanded, isLong {
                Cell("more", ["text": "Show fewer", "value": "off"])
            } else {
                footer(of: viewModel.report.value)
            }
        cachedFooter = (viewModel.reportVersion, expanded, cell)
        return cell
    }

    /// The footer of the report shown, by its version (the chart's drawing is the costly part).
    private var cachedFooter: (version: Int, expanded: Bool, cell: Cell?)?

    private func footer(of report: DayReport?) -> Cell? {
        guard let report else { return nil }
        switch section.content {
        case .app:
            guard let trend = report.trend else { return nil }
            let chart = TrendChart(
                dates: trend.dates, values: trend.dau, previous: report.previousTrend?.dau ?? [], title: "Daily active users",
                annotations: report.annotations)
            return Cell("chart", ["html": AlertBanner(fired: report.firedAlerts).html + chart.html])
        case .revenue:
            guard let trend = Self.chartedRevenue(of: report) else { return nil }
            return Cell("chart", ["html": RevenueTiles.chart(of: trend, annotations: report.annotations).html])
        case .dataHealth(let share):
            guard let health = report.health, health.isUnreliable(share: share) else { return nil }
            return Cell("flag", ["text": "Data unreliable", "detail": "rejections and drops over \(Int((share * 100).rounded()))% of events"])
        case .funnel(let funnel):
            guard case .counted(let counted)? = report.funnels[section.id] else { return nil }
            func day(_ text: String) -> String { CalendarDay(shown: text)?.readable ?? text }
            let range = counted.from == counted.to ? day(counted.from) : "\(day(counted.from)) – \(day(counted.to))"
            return Cell(
                "note", ["text": "\(FunnelView.conversion(of: counted.steps)) converted within \(funnel.window.readable) · chains starting \(range)"])
        default:
            return nil
        }
    }

    /// The revenue trend the section's chart draws: the report's, when a day of it has a
    /// paying user.
    private static func chartedRevenue(of report: DayReport) -> RevenueMetrics? {
        report.revenueTrend.flatMap { trend in trend.dailyPayingUsers.contains { $0 > 0 } ? trend : nil }
    }

    /// The App section's headlines are one row that scrolls sideways on a narrow screen
    /// (L7); other sections are grids.
    public var arrangement: Arrangement {
        if case .app = section.content { return .horizontal }
        return .vertical
    }

    /// A section keeps its heading while it has nothing to show.
    public var hidesWhenEmpty: Bool { false }

    public var layout: ComponentLayout {
        // Lists, funnels and the feed are rows the width of the section; headlines are two
        // to a row, or in the App section's row, 136 px each (about two and a half on a phone).
        let distribution: ComponentLayout.Distribution =
            switch section.content {
            case .app: .width(136)
            case .versions, .screens, .topEvents, .liveFeed, .funnel: .columns(1)
            case .metrics, .retention, .revenue, .dataHealth: .columns(2)
            }
        return ComponentLayout(lineSpacing: 8, interitemSpacing: 8, distribution: distribution, itemRatio: .height(72), headerHeight: 32)
    }

    /// A tile's cell; a headline's number is the page's synced copy of it, a user the tile
    /// names links to their user sheet, and a screen to its paths sheet.
    public func cell(for tile: Tile) -> Cell {
        let viewModel = context?.viewModel
        let href = tile.hasDetail ? (viewModel?.metricLink(tile.id) ?? "") : ""
        switch tile.style {
        case .step(let share):
            return Cell(
                "step", ["key": tile.id, "label": tile.label, "value": tile.value, "detail": tile.detail ?? "", "share": String(share)])
        case .row(let share):
            return Cell(
                "row",
                [
                    "key": tile.id, "label": tile.label, "value": tile.value, "share": String(share), "href": href, "paths": tile.paths ?? "",
                    "pathsHref": tile.paths.flatMap { viewModel?.pathsLink($0) } ?? "",
                ])
        case .heading:
            return Cell("heading", ["key": tile.id, "label": tile.label, "href": href])
        case .event:
            return Cell(
                "event",
                [
                    "key": tile.id, "label": tile.label, "value": tile.value, "detail": tile.detail ?? "", "user": tile.user ?? "",
                    "userHref": tile.user.flatMap { viewModel?.userLink($0) } ?? "",
                ])
        case .empty:
            return Cell("empty", ["text": tile.label])
        case .headline:
            return Cell(
                "metric",
                [
                    "key": tile.id, "label": tile.label, "value": viewModel?.headlines[tile.id]?.value.text ?? tile.value,
                    "detail": tile.detail ?? "", "href": href,
                ])
        }
    }

    /// Whether `text` (lowercased) appears in the section's title or the labels of its
    /// tiles: what the search box matches.
    func matches(_ text: String) -> Bool {
        text.isEmpty || section.title.lowercased().contains(text) || items.contains { $0.label.lowercased().contains(text) }
    }

    /// The tiles `section` shows of `report`.
    static func tiles(of section: DashboardLayout.Section, in report: DayReport) -> [Tile] {
        let metrics = report.metrics
        switch section.content {
        case .metrics(let list):
            // A configured metric is the day's: on a page of several days, its last day, named.
            let day = report.range == nil ? nil : "on \(TrendChart.shortDate(metrics.date))"
            return list.flatMap { metric -> [Tile] in
                guard case .breakdown = metric.measure else {
                    let value = report.values[metric.key]
                    let detail = [value?.detail, day].compactMap { $0 }.joined(separator: " · ")
                    return [Tile(id: metric.key, label: metric.label, value: value?.text ?? "—", detail: detail.isEmpty ? nil : detail)]
                }
                let breakdown = report.breakdowns[metric.key]
                let top = breakdown?.top ?? []
                let heading = Tile(id: metric.key, label: day.map { "\(metric.label), \($0)" } ?? metric.label, value: "", style: .heading)
                guard !top.isEmpty else {
                    let label = breakdown?.rawEventsKeptSince == nil ? "No values on this day" : "No values in the day's kept raw events"
                    return [heading, Tile(id: "\(metric.key):", label: label, value: "", style: .empty)]
                }
                return [heading] + rows(top.map { ("\(metric.key):\($0.value)", $0.value.isEmpty ? "(empty)" : $0.value, $0.events) })
            }
        case .app:
            return headlines(of: report)
        case .versions:
            return rows(ranked(report.versionUsers).map { ("version:\($0.key)", $0.key.isEmpty ? "unknown" : $0.key, $0.value) })
        case .screens(let names):
            // Each screen's row links to its paths.
            let screens = ranked(report.screenViews)
            return zip(screens, rows(screens.map { ("screen:\($0.key)", names[$0.key] ?? $0.key, $0.value) })).map { screen, row in
                var tile = row
                tile.paths = PathQuery.isValidStart(screen.key) ? screen.key : nil
                return tile
            }
        case .topEvents:
            return rows(ranked(report.eventCounts).map { ("event:\($0.key)", $0.key, $0.value) })
        case .retention:
            return report.returning.map { group in
                let id = "retention:\(group.days)"
                let label = "Back \(group.days) \(group.days == 1 ? "day" : "days") after their first"
                guard group.firstSeen > 0 else {
                    return Tile(id: id, label: label, value: "—", detail: "no new users then", hasDetail: false)
                }
                let percent = Int((Double(group.returned) / Double(group.firstSeen) * 100).rounded())
                return Tile(id: id, label: label, value: "\(percent)%", detail: "\(group.returned) of \(group.firstSeen)", hasDetail: false)
            }
        case .revenue:
            guard let revenue = report.revenue, revenue.payingUsers > 0 || !revenue.currencies.isEmpty else { return [] }
            return RevenueTiles.tiles(of: revenue)
        case .liveFeed:
            let zone = TimeZone(identifier: metrics.timeZone) ?? .gmt
            return report.latest.map { event in
                Tile(
                    id: "feed:\(event.id.uuidString)", label: event.name, value: event.timestamp.clock(in: zone),
                    detail: Self.keyProperty(of: event), hasDetail: false, style: .event, user: event.userID)
            }
        case .funnel(let funnel):
            switch report.funnels[section.id] {
            case nil:
                return []
            case .failed(let reason)?:
                return [Tile(id: "funnel:\(section.id)", label: "Not counted", value: "—", detail: reason, hasDetail: false)]
            case .counted(let counted)?:
                return FunnelView.steps(of: counted.steps, named: funnel.steps).enumerated().map { index, step in
                    Tile(
                        id: "funnel:\(section.id):\(index + 1)", label: step.label, value: String(step.users), detail: step.detail, hasDetail: false,
                        style: .step(step.share))
                }
            }
        case .dataHealth:
            guard let health = report.health else { return [] }
            let reasons =
                ranked(health.rejected).map { ("health:rejected:\($0.key)", "Rejected: \($0.key)", $0.value) }
                + ranked(health.dropped).map { ("health:dropped:\($0.key)", "Dropped: \($0.key)", $0.value) }
                + ranked(health.ignoredPurchases).map { ("health:purchase:\($0.key)", "Purchase not counted: \($0.key)", $0.value) }
            return [
                Tile(id: "health:accepted", label: "Accepted", value: String(health.accepted), hasDetail: false),
                Tile(id: "health:duplicates", label: "Duplicates", value: String(health.duplicates), hasDetail: false),
                Tile(id: "health:rejected", label: "Rejected", value: String(health.rejected.values.reduce(0, +)), hasDetail: false),
                Tile(id: "health:dropped", label: "Dropped by SDKs", value: String(health.dropped.values.reduce(0, +)), hasDetail: false),
            ] + (reasons.isEmpty ? [] : [Tile(id: "health:reasons", label: "Reasons", value: "", hasDetail: false, style: .heading)] + rows(reasons))
        }
    }

    /// The App section's headlines: of the day, or of the range — its distinct users, its
    /// average day, its new users and events — each with its change against the compared
    /// period when the page compares.
    static func headlines(of report: DayReport) -> [Tile] {
        guard let range = report.range else {
            let (metrics, previous) = (report.metrics, report.previous)
            let versus = previous.map { " vs \(TrendChart.shortDate($0.date))" } ?? ""
            func versusDay(_ value: Int, _ old: Int?) -> String? { old.map { change(value, from: $0) + versus } }
            let events = metrics.events.values.reduce(0, +)
            return [
                Tile(id: "dau", label: "Daily active users", value: String(metrics.dau), detail: versusDay(metrics.dau, previous?.dau)),
                Tile(id: "wau", label: "Weekly active users", value: String(metrics.wau), detail: versusDay(metrics.wau, previous?.wau)),
                Tile(id: "mau", label: "Monthly active users", value: String(metrics.mau), detail: versusDay(metrics.mau, previous?.mau)),
                Tile(id: "new_users", label: "New users", value: String(metrics.newUsers), detail: versusDay(metrics.newUsers, previous?.newUsers)),
                Tile(id: "events", label: "Events", value: String(events), detail: versusDay(events, previous?.events.values.reduce(0, +))),
            ]
        }
        let old = report.previousRange
        let days = max(range.dates.count, 1)
        func average(_ series: [Int]) -> Int { Int((Double(series.reduce(0, +)) / Double(max(series.count, 1))).rounded()) }
        func events(_ range: RangeMetrics) -> Int { range.events.values.reduce(0) { $0 + $1.reduce(0, +) } }
        let versus = " vs previous \(days) days"
        func detail(_ value: Int, _ previous: Int?, otherwise text: String) -> String { previous.map { change(value, from: $0) + versus } ?? text }
        return [
            Tile(
                id: "range_users", label: "Unique users", value: String(range.users),
                detail: detail(range.users, old?.users, otherwise: "in \(days) days")),
            Tile(
                id: "average_dau", label: "Average daily users", value: String(average(range.dau)),
                detail: detail(average(range.dau), old.map { average($0.dau) }, otherwise: "a day, over \(days) days")),
            Tile(
                id: "range_new_users", label: "New users", value: String(range.newUsers),
                detail: detail(range.newUsers, old?.newUsers, otherwise: "first seen in \(days) days"), hasDetail: false),
            Tile(
                id: "range_events", label: "Events", value: String(events(range)),
                detail: detail(events(range), old.map(events), otherwise: "in \(days) days")),
        ]
    }

    /// `value` against `old` as a signed percentage: `+12%`, `−5%`, `±0%`, or `up from 0`.
    static func change(_ value: Int, from old: Int) -> String {
        guard old != 0 else { return value == 0 ? "±0%" : "up from 0" }
        let percent = Int((Double(value - old) / Double(old) * 100).rounded())
        return percent > 0 ? "+\(percent)%" : percent < 0 ? "\u{2212}\(-percent)%" : "±0%"
    }

    /// Rows of a ranked list, each bar its value's share of the largest.
    private static func rows(_ entries: [(id: String, label: String, value: Int)]) -> [Tile] {
        let largest = Double(max(entries.map(\.value).max() ?? 0, 1))
        return entries.map { Tile(id: $0.id, label: $0.label, value: String($0.value), hasDetail: false, style: .row(Double($0.value) / largest)) }
    }

    /// `counts` from the largest, ties by name.
    private static func ranked(_ counts: [String: Int]) -> [(key: String, value: Int)] {
        counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
    }

    /// What the live feed shows of an event beside its name: a `screen_view`'s screen, or
    /// its first property by name, as `name: value`, at most 60 characters.
    static func keyProperty(of event: Event) -> String? {
        if event.name == "screen_view", case .string(let screen)? = event.properties["screen"] { return String(screen.prefix(60)) }
        guard let (name, value) = event.properties.min(by: { $0.key < $1.key }) else { return nil }
        return String("\(name): \(value.segmentText ?? "…")".prefix(60))
    }
}

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
public final class SectionComponent: Component, ListComponent, Responder {
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

    /// Events raised on the section's elements go on to the page.
    public var nextInChain: (any Responder)? { context as? any Responder }

    public var items: [Tile] {
        guard let viewModel = context?.viewModel, let report = viewModel.report.value else { return [] }
        if let cached, cached.version == viewModel.reportVersion { return cached.tiles }
        let tiles = Self.tiles(of: section, in: report)
        cached = (viewModel.reportVersion, tiles)
        return tiles
    }

    /// The tiles of the report shown, by its version: a page renders, searches and syncs
    /// from them several times per report.
    private var cached: (version: Int, tiles: [Tile])?

    public var header: Cell? { Cell("title", ["title": section.title]) }

    /// The App section's trend chart, Data health's "unreliable" flag, or a funnel's summary.
    public var footer: Cell? {
        guard let viewModel = context?.viewModel else { return nil }
        if let cachedFooter, cachedFooter.version == viewModel.reportVersion { return cachedFooter.cell }
        let cell = footer(of: viewModel.report.value)
        cachedFooter = (viewModel.reportVersion, cell)
        return cell
    }

    /// The footer of the report shown, by its version (the chart's drawing is the costly part).
    private var cachedFooter: (version: Int, cell: Cell?)?

    private func footer(of report: DayReport?) -> Cell? {
        guard let report else { return nil }
        switch section.content {
        case .app:
            guard let trend = report.trend else { return nil }
            let chart = TrendChart(dates: trend.dates, values: trend.dau, previous: report.previousTrend?.dau ?? [], title: "Daily active users")
            return Cell("chart", ["html": chart.html])
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

    /// The live feed is one row that scrolls sideways, newest first (L7); other sections are grids.
    public var arrangement: Arrangement {
        if case .liveFeed = section.content { return .horizontal }
        return .vertical
    }

    /// A section keeps its heading while it has nothing to show.
    public var hidesWhenEmpty: Bool { false }

    public var layout: ComponentLayout {
        // The feed's row shows two and a part of the next, so it reads as scrollable; a
        // funnel's steps are bars the width of the section.
        let distribution: ComponentLayout.Distribution =
            if arrangement == .horizontal { .fraction(0.42) } else if case .funnel = section.content { .columns(1) } else { .columns(2) }
        return ComponentLayout(lineSpacing: 8, interitemSpacing: 8, distribution: distribution, itemRatio: .height(72), headerHeight: 32)
    }

    /// A tile's cell; a headline's number is the page's synced copy of it, a user the tile
    /// names links to their user sheet, and a screen to its paths sheet.
    public func cell(for tile: Tile) -> Cell {
        let viewModel = context?.viewModel
        if let share = tile.share {
            return Cell(
                "step", ["key": tile.id, "label": tile.label, "value": tile.value, "detail": tile.detail ?? "", "share": String(share)])
        }
        return Cell(
            "metric",
            [
                "key": tile.id, "label": tile.label, "value": viewModel?.headlines[tile.id]?.value.text ?? tile.value, "detail": tile.detail ?? "",
                "href": tile.hasDetail ? (viewModel?.metricLink(tile.id) ?? "") : "", "style": tile.isWord ? "word" : "",
                "user": tile.user ?? "", "userHref": tile.user.flatMap { viewModel?.userLink($0) } ?? "",
                "paths": tile.paths ?? "", "pathsHref": tile.paths.flatMap { viewModel?.pathsLink($0) } ?? "",
            ])
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
            return list.map { metric in
                let value = report.values[metric.key]
                let isWord = if case .breakdown = metric.measure { true } else { false }
                return Tile(id: metric.key, label: metric.label, value: value?.text ?? "—", detail: value?.detail, isWord: isWord)
            }
        case .app:
            let previous = report.previous
            func tile(_ key: String, _ label: String, _ value: Int, _ old: Int?) -> Tile {
                Tile(id: key, label: label, value: String(value), detail: old.map { "was \($0)" })
            }
            return [
                tile("dau", "Daily active users", metrics.dau, previous?.dau),
                tile("wau", "Weekly active users", metrics.wau, previous?.wau),
                tile("mau", "Monthly active users", metrics.mau, previous?.mau),
                tile("new_users", "New users", metrics.newUsers, previous?.newUsers),
                tile("events", "Events", metrics.events.values.reduce(0, +), previous?.events.values.reduce(0, +)),
            ]
        case .versions:
            return ranked(metrics.versions).map {
                Tile(id: "version:\($0.key)", label: $0.key.isEmpty ? "unknown" : $0.key, value: String($0.value), hasDetail: false)
            }
        case .screens(let names):
            return ranked(metrics.screens).map {
                Tile(
                    id: "screen:\($0.key)", label: names[$0.key] ?? $0.key, value: String($0.value), hasDetail: false,
                    paths: PathQuery.isValidStart($0.key) ? $0.key : nil)
            }
        case .topEvents:
            return ranked(metrics.events).prefix(10).map {
                Tile(id: "event:\($0.key)", label: $0.key, value: String($0.value), hasDetail: false)
            }
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
        case .liveFeed:
            return report.latest.map { event in
                Tile(
                    id: "feed:\(event.id.uuidString)", label: event.name, value: Self.clock(event.timestamp),
                    detail: event.userID, hasDetail: false, user: event.userID)
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
                        share: step.share)
                }
            }
        case .dataHealth:
            guard let health = report.health else { return [] }
            return [
                Tile(id: "health:accepted", label: "Accepted", value: String(health.accepted), hasDetail: false),
                Tile(id: "health:duplicates", label: "Duplicates", value: String(health.duplicates), hasDetail: false),
                Tile(
                    id: "health:rejected", label: "Rejected", value: String(health.rejected.values.reduce(0, +)),
                    detail: summary(health.rejected), hasDetail: false),
                Tile(
                    id: "health:dropped", label: "Dropped by SDKs", value: String(health.dropped.values.reduce(0, +)),
                    detail: summary(health.dropped), hasDetail: false),
            ]
        }
    }

    /// `counts` from the largest, ties by name.
    private static func ranked(_ counts: [String: Int]) -> [(key: String, value: Int)] {
        counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
    }

    /// `reason: count` pairs, largest first; `nil` when there are none.
    private static func summary(_ counts: [String: Int]) -> String? {
        counts.isEmpty ? nil : ranked(counts).map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    }

    /// The time of day of `date`, UTC, as `HH:mm:ss` (without `String(format:)`, which
    /// showed in the live tick's profile).
    private static func clock(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down)) % 86_400
        let positive = seconds < 0 ? seconds + 86_400 : seconds
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        return "\(two(positive / 3600)):\(two(positive / 60 % 60)):\(two(positive % 60))"
    }
}

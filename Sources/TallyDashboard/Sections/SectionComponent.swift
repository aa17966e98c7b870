public import Componentry
public import ComponentryList

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
        guard let report = context?.viewModel.report.value else { return [] }
        return Self.tiles(of: section.content, in: report)
    }

    public var header: Cell? { Cell("title", ["title": section.title]) }

    /// A section keeps its heading while it has nothing to show.
    public var hidesWhenEmpty: Bool { false }

    public var layout: ComponentLayout {
        ComponentLayout(lineSpacing: 8, interitemSpacing: 8, distribution: .columns(2), itemRatio: .height(72), headerHeight: 32)
    }

    public func cell(for tile: Tile) -> Cell {
        Cell("metric", ["key": tile.id, "label": tile.label, "value": tile.value, "detail": tile.detail ?? ""])
    }

    /// The tiles `content` shows of `report`.
    static func tiles(of content: DashboardLayout.Content, in report: DayReport) -> [Tile] {
        let metrics = report.metrics
        switch content {
        case .metrics(let list):
            return list.map { metric in
                let value = report.values[metric.key]
                return Tile(id: metric.key, label: metric.label, value: value?.text ?? "—", detail: value?.detail)
            }
        case .app:
            return [
                Tile(id: "dau", label: "Daily active users", value: String(metrics.dau)),
                Tile(id: "wau", label: "Weekly active users", value: String(metrics.wau)),
                Tile(id: "mau", label: "Monthly active users", value: String(metrics.mau)),
                Tile(id: "new_users", label: "New users", value: String(metrics.newUsers)),
                Tile(id: "events", label: "Events", value: String(metrics.events.values.reduce(0, +))),
            ]
        case .versions:
            return ranked(metrics.versions).map { Tile(id: "version:\($0.key)", label: $0.key.isEmpty ? "unknown" : $0.key, value: String($0.value)) }
        case .screens(let names):
            return ranked(metrics.screens).map { Tile(id: "screen:\($0.key)", label: names[$0.key] ?? $0.key, value: String($0.value)) }
        case .topEvents:
            return ranked(metrics.events).prefix(10).map { Tile(id: "event:\($0.key)", label: $0.key, value: String($0.value)) }
        case .liveFeed, .dataHealth:
            return []  // fed by the live feed and the health counters, not by the day's rollups
        }
    }

    /// `counts` from the largest, ties by name.
    private static func ranked(_ counts: [String: Int]) -> [(key: String, value: Int)] {
        counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
    }
}

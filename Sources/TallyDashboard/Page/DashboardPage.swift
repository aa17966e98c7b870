public import Componentry
public import ComponentryList

/// One open dashboard: the server-side twin of the original app's view controller, one per
/// browser tab.
///
/// It is the ``Componentry/ComponentContext`` of its sections: a ``Componentry/ComponentFactory``
/// made from the layout creates a ``SectionComponent`` per section, a
/// ``Componentry/ComponentManager`` holds them in the user's order and passes the page's
/// lifecycle on, and the sections talk over the page's ``eventBus``. What the browser shows
/// is the list of visible sections rendered by ComponentryList: ``html`` the first time,
/// then each change as the DOM patches of the list's diff.
///
/// ```swift
/// let page = DashboardPage(layout: .default, date: "2026-11-23")
/// send(page.html)                              // the first response
/// send(page.show(try await DayReport.load(…))) // patches: the numbers appear
/// send(page.move("ads", to: 0))                // patches: one section moves
/// ```
@MainActor
public final class DashboardPage: ComponentContext {
    public let viewModel: DashboardViewModel
    public let eventBus = EventBus()
    private let manager: ComponentManager<DashboardViewModel>
    private let renderer = HTMLRenderer(rootID: "sections", componentAttribute: "data-section", cellContent: SectionCell.html)
    /// What the browser shows: the last list rendered.
    private var shown: RenderedList
    /// The patches of the browser event being handled (see ``receive(_:)``).
    var pendingPatches: [DOMPatch] = []

    /// Creates the page of `layout` showing `date`, its sections in the user's saved `order`
    /// (the layout's own when `nil`; sections the layout no longer has are skipped).
    public init(layout: DashboardLayout, date: String, order: ComponentOrder? = nil) {
        viewModel = DashboardViewModel(layout: layout, date: date, order: order)
        manager = ComponentManager(factory: Self.factory(for: layout))
        shown = RenderedList()
        manager.load(viewModel.order.value, context: self)
        manager.pageDidLoad()
        shown = render()
    }

    /// A factory that makes each section of `layout` under the section's id.
    static func factory(for layout: DashboardLayout) -> ComponentFactory<DashboardViewModel> {
        let factory = ComponentFactory<DashboardViewModel>()
        for section in layout.sections {
            // Layout ids are unique and not blank (DashboardLayout checks), so nothing is refused.
            try? factory.register(section.id) { context in SectionComponent(section: section, context: context) }
        }
        return factory
    }

    /// The visible sections as HTML, as the browser has them.
    public var html: String { renderer.render(shown) }

    /// The sections shown, in order.
    public var sections: [SectionComponent] { manager.components.compactMap { $0 as? SectionComponent } }

    /// Shows `report`; returns the patches that bring the browser up to date.
    public func show(_ report: DayReport) -> [DOMPatch] {
        viewModel.report.value = report
        return update()
    }

    /// Moves the section `id` to `index` among all sections; returns the patches. An unknown
    /// id (a stale page in the browser) changes nothing.
    public func move(_ id: String, to index: Int) -> [DOMPatch] {
        guard viewModel.order.value.contains(id) else { return [] }
        manager.move(id, to: max(0, min(index, viewModel.order.value.identifiers.count - 1)))
        viewModel.order.value = manager.order
        return update()
    }

    /// Hides or shows the section `id`; returns the patches. An unknown id changes nothing.
    public func setHidden(_ isHidden: Bool, for id: String) -> [DOMPatch] {
        guard viewModel.order.value.contains(id) else { return [] }
        manager.setHidden(isHidden, for: id)
        viewModel.order.value = manager.order
        return update()
    }

    public func component<C: Component>(_ type: C.Type) -> C? { manager.component(type) }

    public func reload() { manager.reload() }

    /// Renders the visible sections and returns the patches from what the browser shows.
    private func update() -> [DOMPatch] {
        let list = render()
        let patches = renderer.patch(from: shown, applying: shown.changes(to: list))
        shown = list
        return patches
    }

    private func render() -> RenderedList {
        // The manager holds one component per identifier, so ids never repeat.
        ((try? ListDataSource(sections)) ?? ListDataSource()).render()
    }
}

/// One business screen of components (L2): it requests its content, keeps it in a
/// ``ListDataSource``, refreshes, loads more, and shows placeholders before the first
/// response and an empty state when there is nothing.
///
/// The request is an async function from a page to components:
///
/// ```swift
/// let module = ListModule(pageSize: 20, empty: EmptyComponent()) { page in
///     let report = try await api.report(page: page.index, size: page.size)
///     return [MetricsComponent(report.metrics), PagesComponent(report.pages)]
/// }
/// module.onUpdate = { update in socket.send(HTMLRenderer.json(renderer.patch(update))) }
/// await module.refresh()
/// ```
///
/// - A refresh requests page 0 and replaces every component; a load more requests the
///   next page and adds the components it returns (replacing those with the same id).
///   A response in which two components share an id fails with
///   ``ListDataSourceError/duplicateID(_:)``, like a failed request.
///   ``shouldLoadMore`` is `true` while the last page returned at least
///   ``ListPage/size`` items. A response that arrives after a newer refresh started is
///   dropped.
/// - After every change the module renders, diffs against what it rendered before,
///   re-lays out from the first change and calls ``onUpdate``. Call ``reload()`` after
///   changing components yourself.
/// - What shows: ``placeholders`` until the first response; the ``emptyComponent`` while
///   there is nothing to show (an empty response, or a failure with nothing loaded);
///   otherwise the data source's visible components.
@MainActor
public final class ListModule {
    /// Requests one page of content.
    public typealias Request = @MainActor (ListPage) async throws -> [any ListComponent]

    /// The loaded components.
    public let dataSource = ListDataSource()
    /// Where loading stands.
    public private(set) var state = ListModuleState.idle
    /// The number of items a full page holds.
    public let pageSize: Int
    /// Whether another page may exist: the last page was full.
    public private(set) var shouldLoadMore = false
    /// Shown until the first response, like skeleton rows.
    public var placeholders: [any ListComponent]
    /// Shown when there is nothing else to show.
    public var emptyComponent: (any ListComponent)?
    /// The container shared by the module, its components and the layout; setting it lays
    /// the list out again.
    public var environment: ListEnvironment {
        didSet { if environment != oldValue { layout.update(dataSource.layoutSections(displayedComponents, rendered: rendered), in: environment) } }
    }
    /// Frames for what is shown, in ``environment``.
    public private(set) var layout = ListLayout()
    /// What is shown, as last rendered.
    public private(set) var rendered = RenderedList()
    /// Called after each ``reload()`` that changed what is shown.
    public var onUpdate: ((ListUpdate) -> Void)?

    private var isFailed: Bool {
        if case .failed = state { true } else { false }
    }

    private let request: Request
    private var generation = 0
    private var pageIndex = 0
    private var hasResponse = false

    /// Creates a module that loads pages of `pageSize` items with `request`.
    public init(
        pageSize: Int = 20, environment: ListEnvironment = ListEnvironment(),
        placeholders: [any ListComponent] = [], empty: (any ListComponent)? = nil,
        request: @escaping Request
    ) {
        self.pageSize = pageSize
        self.environment = environment
        self.placeholders = placeholders
        self.emptyComponent = empty
        self.request = request
        reload()
    }

    /// The components shown now: placeholders, the empty state, or the visible ones.
    public var displayedComponents: [any ListComponent] {
        if !hasResponse, !isFailed { return placeholders }
        let visible = dataSource.visibleComponents
        if visible.isEmpty, let emptyComponent { return [emptyComponent] }
        return visible
    }

    /// Requests the first page and replaces every component with the response.
    public func refresh() async {
        generation += 1
        await load(ListPage(index: 0, size: pageSize))
    }

    /// Requests the next page and adds its components; does nothing before the first
    /// response, while a request is in flight, or when ``shouldLoadMore`` is `false`.
    public func loadMore() async {
        guard hasResponse, shouldLoadMore, !state.isLoading else { return }
        await load(ListPage(index: pageIndex + 1, size: pageSize))
    }

    private func load(_ page: ListPage) async {
        let current = generation
        state = .loading(page)
        reload()
        do {
            let components = try await request(page)
            guard current == generation else { return }
            if page.index == 0 {
                try dataSource.replaceAll(with: components)
            } else {
                try ListDataSource.requireUniqueIDs(components)
                components.forEach(dataSource.replace)
            }
            hasResponse = true
            pageIndex = page.index
            shouldLoadMore = components.reduce(0) { $0 + $1.items.count } >= page.size
            state = dataSource.visibleComponents.isEmpty ? .empty : .loaded
        } catch {
            guard current == generation else { return }
            state = .failed(error)
        }
        reload()
    }

    /// Renders what is shown, diffs it against the last render, lays out from the first
    /// change, and calls ``onUpdate`` if anything changed.
    @discardableResult
    public func reload() -> ListUpdate {
        let components = displayedComponents
        let new = dataSource.render(components)
        let update = ListUpdate(old: rendered, new: new, changes: rendered.changes(to: new))
        rendered = new
        if !update.changes.isEmpty || layout.environment != environment {
            layout.update(dataSource.layoutSections(components, rendered: new), in: environment, from: update.changes.firstPath())
        }
        if !update.changes.isEmpty { onUpdate?(update) }
        return update
    }

    /// Tells the shown component at `path.section` that its item was selected. A path
    /// with no item (a click from a page that is behind) is ignored and returns `false`.
    @discardableResult
    public func select(at path: ItemPath) -> Bool {
        ListDataSource.select(at: path, in: displayedComponents)
    }
}

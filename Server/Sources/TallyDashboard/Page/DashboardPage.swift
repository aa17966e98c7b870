public import Componentry
public import ComponentryList
import Foundation
public import TallyStore

/// One open dashboard: the server-side twin of the original app's view controller, one per
/// browser tab.
///
/// It is the ``Componentry/ComponentContext`` of its sections: a ``Componentry/ComponentFactory``
/// made from the layout creates a ``SectionComponent`` per section, a
/// ``Componentry/ComponentManager`` holds them in the user's order and passes the page's
/// lifecycle on, and live reports reach it over its ``eventBus``. What the browser shows
/// is the list of visible sections rendered by ComponentryList: ``html`` the first time,
/// then each change as the DOM patches of the list's diff, sent through ``outbox``.
///
/// ```swift
/// let page = DashboardPage(app: app, layout: .default, query: query, store: store)
/// page.outbox = { message in socket.send(message) }
/// await page.refresh()                                             // the numbers appear
/// try page.receive(BrowserEvent(section: "ads", name: "move", value: "0"))  // one section moves
/// ```
@MainActor
public final class DashboardPage: ComponentContext {
    public let viewModel: DashboardViewModel
    public let eventBus = EventBus()
    /// The app shown.
    public let app: App
    /// What the signed-in user may do with ``app``: a viewer's page refuses to change the
    /// app's saved segments and shows no control that would. The server keeps it current
    /// (see ``LiveSocket``).
    public var role: AppRole
    /// The apps the signed-in user has a role in, by id, ``app`` among them: the header's app
    /// menu links each when there is more than one. The server sets them; empty otherwise.
    public var apps: [App] = []
    /// Whether the server sends alert webhooks to loopback and other non-public addresses
    /// (`tally serve --allow-private-webhooks`). When not, ``saveAlert(_:)`` refuses a rule whose
    /// webhook names one; a name that resolves to one is refused when its POST is due.
    public var allowsPrivateWebhooks = false
    /// Where reports are read; `nil` for a page that only renders what it is shown.
    let store: EventStore?
    /// How the page's costly reads wait their turn and share with other pages; the server
    /// sets them.
    public var reads = PageReads()
    /// Sheet reads asked for while one runs, merged into the one read that runs next (see
    /// ``loadSheetData(force:)``).
    var sheetDemand: (force: Bool, waiters: [CheckedContinuation<Bool, Never>])?
    /// Whether a sheet read runs.
    var isReadingSheet = false
    /// When new events last recounted the open sheet, and whether a recount is due later.
    var liveSheetRead: (last: ContinuousClock.Instant?, isScheduled: Bool) = (nil, false)
    /// Opens sheets by URL (see ``SheetTarget``).
    let mediator: Mediator
    /// Keeps the copies of each headline number in step, across tabs and sheets.
    let channel: SyncChannel
    /// Receives every message for the browser, in order: patches, address, busy state, errors.
    public var outbox: (@MainActor (PageMessage) -> Void)?
    /// Called when the user changes the order or the hidden sections, to save them.
    public var orderDidChange: (@MainActor (ComponentOrder) -> Void)?

    private let manager: ComponentManager<DashboardViewModel>
    private let renderer = HTMLRenderer(rootID: "sections", componentAttribute: "data-section", cellContent: SectionCell.html)
    /// What the browser shows: the last list rendered.
    private var shown: RenderedList
    /// The open sheet's HTML, as the browser has it.
    var sheetHTML = ""
    /// The kind of sheet last drawn (``PageQuery/Sheet/kind``).
    private var shownSheet: String?
    /// An update for synced numbers is coming (see ``scheduleUpdate()``).
    private var isUpdateScheduled = false
    /// Numbers synced from other pages are not rendered yet.
    private var needsUpdate = false

    /// Creates the page of `app` showing `query` with the sections of `layout` in the user's
    /// saved `order` (the layout's own when `nil`; sections the layout no longer has are
    /// skipped). It reads reports from `store`, opens sheets through `mediator`, and keeps
    /// its numbers in step with the other pages of `channel`. The filter bar lists
    /// `savedSegments`, and shows `filterNotice`: why the filter of the page's address was
    /// left out. A filter on a property the app does not segment by is left out too, and
    /// the notice says so. The user's `role` says what the page lets them change: the server
    /// passes the user's own; without one the page is a viewer's, which changes nothing.
    public init(
        app: App, layout: DashboardLayout, query: PageQuery, order: ComponentOrder? = nil, store: EventStore? = nil,
        mediator: Mediator = .dashboard, channel: SyncChannel = SyncChannel(), savedSegments: [SavedSegment] = [],
        filterNotice: String? = nil, role: AppRole = .viewer
    ) {
        self.app = app
        self.role = role
        self.store = store
        self.mediator = mediator
        self.channel = channel
        var query = query
        var notice = filterNotice
        if let problem = Self.filterProblem(query.filter, app: app) {
            notice = problem
            query.filter = SegmentFilter()
        }
        viewModel = DashboardViewModel(layout: layout, query: query, order: order)
        viewModel.savedSegments.value = savedSegments
        viewModel.filterNotice = notice.map { "The address's filter was left out. \($0)" }
        manager = ComponentManager(factory: Self.factory(for: layout))
        shown = RenderedList()
        manager.load(viewModel.order.value, context: self)
        manager.pageDidLoad()
        readSections()
        shown = render()
        observeState()
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

    /// The visible sections as HTML, as the browser has them; their `<style>` elements
    /// carry no nonce (the page's script gives them the page's when a patch brings them).
    public var html: String { renderer.render(shown) }

    /// The visible sections as HTML whose `<style>` elements carry `styleNonce`.
    func html(styleNonce: String) -> String {
        var renderer = renderer
        renderer.styleNonce = styleNonce
        return renderer.render(shown)
    }

    /// The whole page as HTML: the first response, readable with scripts off. Its sign-out
    /// form carries `csrf`. Its sections' layout is `<style>` elements that carry
    /// `styleNonce`, the nonce the response's `Content-Security-Policy` names (made for that
    /// response alone); its script carries it too, and gives it to the sections' `<style>`
    /// elements that patches bring.
    public func document(csrf: String, styleNonce: String) -> String {
        DashboardViews.page(self, csrf: csrf, styleNonce: styleNonce)
    }

    /// The page's address: `/apps/1?date=2026-11-23`.
    public var url: String { "/apps/\(app.id.rawValue)?\(viewModel.query.value.queryString)" }

    /// The id whose events the page shows: the app's, or its ``AppID/debug`` id.
    public var shownApp: AppID { viewModel.query.value.debug ? app.id.debug : app.id }

    /// The sections in the page's order, hidden ones included.
    public private(set) var sections: [SectionComponent] = []

    /// Reads ``sections`` from the manager, after it loads or reorders them.
    private func readSections() {
        sections = manager.components(SectionComponent.self)
    }

    /// Shows `report`; returns the patches that bring the browser up to date.
    public func show(_ report: DayReport) -> [DOMPatch] {
        viewModel.report.value = report
        viewModel.reportVersion &+= 1
        syncHeadlines(report)
        return update()
    }

    /// Gives each headline of `report` to the page's copy of it — emitting a new value to
    /// every other copy of the same number — and makes the copies a new day needs.
    private func syncHeadlines(_ report: DayReport) {
        let query = viewModel.query.value
        var kept: [String: HeadlineMetric] = [:]
        for section in sections {
            for tile in section.items where tile.hasDetail {
                let id = MetricIdentity(app: shownApp, day: query.date, timeZone: query.timeZone, key: tile.id)
                let value = MetricValue(tile.value, detail: tile.detail)
                if let copy = viewModel.headlines[tile.id], copy.id == id {
                    if copy.value != value { copy.emit(.metricValue, value) }
                    kept[tile.id] = copy
                } else {
                    let copy = HeadlineMetric(id: id, value: value, channel: channel)
                    redrawWhenSynced(copy.$value)
                    copy.emit(.metricValue, value)  // copies elsewhere may be older
                    kept[tile.id] = copy
                }
            }
        }
        viewModel.headlines = kept
        syncDetail()
    }

    /// Gives the open metric sheet its copy of the number it details, or drops it.
    func syncDetail() {
        guard case .metric(let key) = viewModel.query.value.sheet, let headline = viewModel.headlines[key] else {
            viewModel.detail = nil
            return
        }
        guard viewModel.detail?.id != headline.id else { return }
        let detail = DetailMetric(id: headline.id, value: headline.value, channel: channel)
        redrawWhenSynced(detail.$value)
        viewModel.detail = detail
    }

    /// Redraws the page when `value` takes a number synced from another page (the page's
    /// own emits are drawn by the update that made them).
    private func redrawWhenSynced(_ value: ReadOnlyObservable<SyncedValue<MetricValue>>) {
        value.observe().onMainActor().owner(self).didChange { page, new, _ in
            if !new.origin.isLocal { page.scheduleUpdate() }
        }
    }

    /// Redraws once, soon, after numbers synced from other pages — unless the page renders
    /// before then anyway (its own report for the same tick usually comes right after).
    private func scheduleUpdate() {
        needsUpdate = true
        guard !isUpdateScheduled else { return }
        isUpdateScheduled = true
        Task { [weak self] in
            guard let self else { return }
            isUpdateScheduled = false
            guard needsUpdate else { return }
            send(PageMessage(patches: update() + refreshSheet()))
        }
    }

    /// Moves the section `id` to `index` among all sections; returns the patches. An unknown
    /// id (a stale page in the browser) changes nothing.
    public func move(_ id: String, to index: Int) -> [DOMPatch] {
        reorder(id) { $0.move(id, to: max(0, min(index, viewModel.order.value.identifiers.count - 1))) }
    }

    /// Hides or shows the section `id`; returns the patches. An unknown id changes nothing.
    public func setHidden(_ isHidden: Bool, for id: String) -> [DOMPatch] {
        reorder(id) { $0.setHidden(isHidden, for: id) }
    }

    /// Applies `change` to the manager's order of the section `id`, keeps the view model's
    /// order in step, and returns the patches; an unknown id changes nothing.
    private func reorder(_ id: String, _ change: (ComponentManager<DashboardViewModel>) -> Void) -> [DOMPatch] {
        guard viewModel.order.value.contains(id) else { return [] }
        change(manager)
        readSections()
        viewModel.order.value = manager.order
        return update() + refreshSheet()
    }

    public func component<C: Component>(_ type: C.Type) -> C? { manager.component(type) }

    /// Reads the report of the page's query again: see ``refresh()``.
    public func reload() {
        Task { await refresh() }
    }

    /// Reads the report of the page's query from the store and shows it; the reload button
    /// is off meanwhile. A failed read shows its error and keeps the numbers shown.
    public func refresh() async {
        guard let store else { return }
        viewModel.isRefreshing.value = true
        defer { viewModel.isRefreshing.value = false }
        let query = viewModel.query.value
        do {
            let report = try await reads.run { [app, layout = viewModel.layout] in
                try await DayReport.load(from: store, app: app.id, layout: layout, query: query)
            }
            await loadSheetData()
            // A newer query (the user chose another range meanwhile) has its own refresh.
            guard viewModel.query.value.with({ $0.sheet = nil }) == query.with({ $0.sheet = nil }) else { return }
            apply(report)
        } catch {
            // Sections still waiting for their first numbers say why they will not come.
            viewModel.loadError = "The numbers could not be read: \(error)"
            send(PageMessage(patches: update(), error: viewModel.loadError))
        }
    }

    /// Everything the browser needs to show this page as the server has it: the sections,
    /// the sheet, the date button. Sent first on each connection (the browser's copy may be
    /// older than the page), which makes reconnecting a resync.
    public var resync: PageMessage {
        PageMessage(
            patches: [
                .replace(id: "sections", html: html), .replace(id: "sheet-slot", html: sheetSlot),
                .replace(id: "date-button", html: DashboardViews.dateButton(for: self)),
                .replace(id: "debug-button", html: DashboardViews.debugButton(for: self)),
                .replace(id: "filter-bar", html: DashboardViews.filterBar(for: self)),
            ],
            url: url, refreshing: viewModel.isRefreshing.value)
    }

    /// The `#sheet-slot` element, with the open sheet inside.
    var sheetSlot: String { "<div id=\"sheet-slot\">\(sheetHTML)</div>" }

    /// Shows `report` and sends the browser the patches.
    func apply(_ report: DayReport) {
        send(PageMessage(patches: show(report) + refreshSheet()))
    }

    /// Sends `message` to the browser, if one is connected and it says something.
    func send(_ message: PageMessage) {
        guard !message.patches.isEmpty || message.url != nil || message.refreshing != nil || message.error != nil else { return }
        outbox?(message)
    }

    /// Renders the visible sections and returns the patches from what the browser shows.
    func update() -> [DOMPatch] {
        needsUpdate = false
        let list = render()
        let patches = renderer.patch(from: shown, applying: shown.changes(to: list))
        shown = list
        return patches
    }

    /// The sheet the query names, rendered again (the section manager lists the order, say),
    /// or its removal once closed; nothing when the browser has it already.
    func refreshSheet() -> [DOMPatch] {
        let sheet = viewModel.query.value.sheet
        var html = sheet.flatMap { try? mediator.sheet($0, of: self) } ?? ""
        // The same sheet drawn again (a new value, a step picked) stays where it is instead
        // of sliding in again.
        if let kind = sheet?.kind, kind == shownSheet, let range = html.range(of: "class=\"sheet\"") {
            html.replaceSubrange(range, with: "class=\"sheet still\"")
        }
        shownSheet = sheet?.kind
        guard html != sheetHTML else { return [] }
        sheetHTML = html
        return [.replace(id: "sheet-slot", html: sheetSlot)]
    }

    private func render() -> RenderedList {
        let search = viewModel.search.value
        let visible = sections.filter { !viewModel.order.value.hidden.contains($0.id) && $0.matches(search) }
        // The manager holds one component per identifier, so ids never repeat.
        return ((try? ListDataSource(visible)) ?? ListDataSource()).render()
    }

    /// Wires the page's reactions: reports arriving on the bus, the debounced search, the
    /// lists shown whole, the busy flag, the saved order and the saved segments.
    private func observeState() {
        // Live updates arrive here: LiveUpdates posts each app's fresh report on the bus of
        // every page that shows it.
        eventBus.on(ReportArrived.self).owner(self).onMainActor().handle { page, arrived in
            guard arrived.query == page.viewModel.query.value.with({ $0.sheet = nil }) else { return }  // read for a range since left
            page.apply(arrived.report)
            // The ad-hoc funnel and the paths count the same events: they move with them.
            switch page.viewModel.query.value.sheet {
            case .funnel?, .paths?: page.recountSheetLive()
            default: break
            }
        }
        viewModel.search.observe().onMainActor().owner(self).didChange { page, _, _ in
            page.send(PageMessage(patches: page.update()))
        }
        viewModel.expandedSections.observe().onMainActor().owner(self).didChange { page, _, _ in
            page.send(PageMessage(patches: page.update()))
        }
        viewModel.isRefreshing.observe().onMainActor().owner(self).didChange { page, busy, _ in
            page.send(PageMessage(refreshing: busy))
        }
        viewModel.order.observe().onMainActor().owner(self).didChange { page, order, _ in
            page.orderDidChange?(order)
        }
        viewModel.savedSegments.observe().onMainActor().owner(self).didChange { page, _, _ in
            page.send(PageMessage(patches: [.replace(id: "filter-bar", html: DashboardViews.filterBar(for: page))] + page.refreshSheet()))
        }
    }
}

/// A report read for a page's query, posted on the page's bus.
public struct ReportArrived: BusEvent {
    /// The query the report answers.
    public var query: PageQuery
    /// The report.
    public var report: DayReport
}

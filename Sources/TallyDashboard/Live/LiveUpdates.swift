public import Componentry
public import ComponentryList
import TallyServer
public import TallyStore

/// Keeps every open dashboard up to date as events arrive, with no polling.
///
/// A page registers with the app it shows and a way to send its patches (its WebSocket).
/// When the server's bus announces ``TallyServer/EventsIngested`` for an app, the app is
/// marked; once per ``tick`` each marked app's report is read once per day its pages show —
/// whatever the number of open tabs — and each of those pages gets the patches that bring
/// it up to date. Pages are held weakly: a closed tab's page is freed, and its entry dropped.
@MainActor
public final class LiveUpdates {
    /// Reads the report of an app's day, as ``DayReport/load(from:app:layout:date:timeZone:)`` does.
    public typealias Loader = @Sendable (_ app: AppID, _ date: String) async throws -> DayReport

    /// How long marks gather before the reports are read.
    public let tick: Duration
    private let load: Loader
    private var pages: [AppID: [Entry]] = [:]
    private var marked: Set<AppID> = []
    private var isTickScheduled = false
    private var subscription: Subscription?

    private struct Entry {
        weak var page: DashboardPage?
        let send: @MainActor ([DOMPatch]) -> Void
    }

    /// Starts listening to `bus` for ingested events.
    public init(bus: EventBus, tick: Duration = .milliseconds(250), load: @escaping Loader) {
        self.tick = tick
        self.load = load
        subscription = bus.on(EventsIngested.self).owner(self).onMainActor().handle { live, ingested in
            live.mark(ingested.app)
        }
    }

    /// Keeps `page`, which shows `app`, up to date until it is freed, calling `send` with
    /// its patches after each change.
    public func register(_ page: DashboardPage, app: AppID, send: @escaping @MainActor ([DOMPatch]) -> Void) {
        dropClosedPages()
        pages[app, default: []].append(Entry(page: page, send: send))
    }

    /// The registered pages still open.
    public var openPages: Int {
        pages.values.reduce(0) { $0 + $1.count { $0.page != nil } }
    }

    /// The entries held, closed pages not yet dropped included; for tests of the bound.
    var entryCount: Int { pages.values.reduce(0) { $0 + $1.count } }

    private func mark(_ app: AppID) {
        guard pages[app] != nil else { return }
        marked.insert(app)
        guard !isTickScheduled else { return }
        isTickScheduled = true
        Task { [tick] in
            try? await Task.sleep(for: tick)
            await self.refresh()
        }
    }

    /// Reads each marked app's report once per day shown and updates its pages.
    private func refresh() async {
        let apps = marked
        marked.removeAll()
        isTickScheduled = false
        dropClosedPages()
        for app in apps {
            let days = Dictionary(grouping: pages[app] ?? []) { $0.page?.viewModel.date.value ?? "" }
            for (date, entries) in days {
                guard let report = try? await load(app, date) else { continue }  // the next ingest retries
                for entry in entries {
                    if let page = entry.page { entry.send(page.show(report)) }
                }
            }
        }
    }

    private func dropClosedPages() {
        for (app, entries) in pages {
            let open = entries.filter { $0.page != nil }
            pages[app] = open.isEmpty ? nil : open
        }
    }
}

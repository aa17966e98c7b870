import Foundation
import TallyEvent
public import TallyStore

extension DashboardPage {
    /// Why `filter` cannot narrow `app`'s pages: it names a property that is neither built in
    /// nor one of the app's segment properties; `nil` when it can.
    nonisolated static func filterProblem(_ filter: SegmentFilter, app: App) -> String? {
        guard let unknown = filter.unknownProperty(among: app.segmentProperties.filterNames) else { return nil }
        let names = app.segmentProperties.filterNames.joined(separator: ", ")
        return "\"\(unknown.prefix(60))\" is not a property this app is segmented by (\(names))."
    }

    /// The properties a filter may name on this page, with the group each is listed under.
    var filterProperties: [(name: String, group: String)] {
        SegmentProperties.builtIn.map { ($0, "App") } + app.segmentProperties.event.map { ($0, "Event properties") }
            + app.segmentProperties.user.map { ($0, "User properties") }
    }

    /// Shows every section under `filter` instead of the current one: a new entry of the
    /// browser's history, so Back shows the page before. A filter on a property the app
    /// does not segment by changes nothing and says why.
    public func setFilter(_ filter: SegmentFilter) {
        if let problem = Self.filterProblem(filter, app: app) {
            send(PageMessage(error: problem))
            return
        }
        viewModel.filterNotice = nil
        change(addsHistory: true) {
            $0.filter = filter
            if case .filter? = $0.sheet { $0.sheet = nil }  // the sheet that added it has done its work
        }
    }

    /// Shows `query`, the address the browser went back or forward to, with `notice`
    /// saying why its filter was left out, if it was.
    func navigate(to query: PageQuery, notice: String?) {
        var query = query
        var notice = notice
        if let problem = Self.filterProblem(query.filter, app: app) {
            notice = problem
            query.filter = SegmentFilter()
        }
        viewModel.filterNotice = notice.map { "The address's filter was left out. \($0)" }
        guard query != viewModel.query.value else {
            // The notice may have changed alone.
            send(PageMessage(patches: [.replace(id: "filter-bar", html: DashboardViews.filterBar(for: self))], url: url))
            return
        }
        change { $0 = query }
    }

    /// Reads, in the background, what the open sheet shows beside the report: see
    /// ``loadSheetData(force:)``. Sends the browser the sheet once it is read.
    func reloadSheetData(force: Bool = false) {
        Task {
            guard await loadSheetData(force: force) else { return }
            send(PageMessage(patches: refreshSheet()))
        }
    }

    /// Counts the open funnel or paths sheet again for new events: at once if the last
    /// recount for new events was ``PageReads/liveSheetInterval`` ago or more, else once
    /// that interval is over, however many reports arrive meanwhile.
    func recountSheetLive() {
        let due = liveSheetRead.last.map { $0 + reads.liveSheetInterval } ?? .now
        guard due > .now else {
            liveSheetRead.last = .now
            return reloadSheetData(force: true)
        }
        guard !liveSheetRead.isScheduled else { return }
        liveSheetRead.isScheduled = true
        Task { [weak self] in
            try? await Task.sleep(until: due)
            guard let self else { return }
            liveSheetRead = (.now, false)
            reloadSheetData(force: true)
        }
    }

    /// Reads what the open sheet shows beside the report, as ``readSheetData(force:)``
    /// does, one read at a time: asked while one runs, it waits for the next, which reads
    /// once for every request made meanwhile (forced if one of them was). Returns whether
    /// that read kept what it read.
    @discardableResult
    func loadSheetData(force: Bool = false) async -> Bool {
        await withCheckedContinuation { continuation in
            if var demand = sheetDemand {
                demand.force = demand.force || force
                demand.waiters.append(continuation)
                sheetDemand = demand
            } else {
                sheetDemand = (force, [continuation])
            }
            guard !isReadingSheet else { return }
            isReadingSheet = true
            Task {
                while let demand = sheetDemand {
                    sheetDemand = nil
                    let kept = await readSheetData(force: demand.force)
                    for waiter in demand.waiters { waiter.resume(returning: kept) }
                }
                isReadingSheet = false
            }
        }
    }

    /// Reads what the open sheet shows beside the report: the ad-hoc funnel's counts for the
    /// page's query (again when `force`), the filter sheet's suggested values (once per
    /// page), the user sheet's first page of events, the user search's answer or the paths
    /// sheet's counts, the members sheet's members for an owner (again when `force`), the alerts sheet's
    /// rules, firings and annotations (again when `force`; see ``readTimeline(of:for:force:from:)``,
    /// ``searchUsers(_:for:force:from:)`` and ``readPaths(_:for:force:from:)``). Returns
    /// whether it read anything.
    private func readSheetData(force: Bool) async -> Bool {
        guard let store else { return false }
        let query = viewModel.query.value
        switch query.sheet {
        case .funnel(let funnel)? where funnel.isComplete:
            guard force || viewModel.adHocFunnel?.query != query else { return false }
            let report: FunnelReport
            do {
                report = .counted(
                    try await reads.sheets.funnels.read(SheetReads.Key(app: shownApp, query: query)) { [reads, shownApp] in
                        try await reads.run {
                            try await store.metrics.funnel(
                                funnel.steps, window: funnel.window.seconds, breakdown: funnel.breakdown, in: query.scope(of: shownApp))
                        }
                    })
            } catch let error as TallyStoreError {
                report = .failed(error.description)
            } catch {
                report = .failed("The funnel could not be read: \(error)")
            }
            // Only the counts of the query still shown are kept: a later one reads its own.
            guard viewModel.query.value == query else { return false }
            viewModel.adHocFunnel = (query, report)
            return true
        case .members?:
            guard role.canManageMembers, force || viewModel.members == nil, let members = try? await store.members.list(app: app.id) else {
                return false
            }
            viewModel.members = members
            return true
        case .alerts?:
            guard force || viewModel.alerts?.query != query, let data = await readAlerts(for: query) else { return false }
            viewModel.alerts = data
            return true
        case .filter?:
            guard viewModel.filterSuggestions == nil else { return false }
            let events = (try? await store.events.latest(app: shownApp, limit: Self.suggestionWindow)) ?? []
            // A user property's values are the users' own, however long ago each was sent.
            let users =
                (try? await store.users.propertyValues(
                    app: shownApp, properties: app.segmentProperties.user, limit: Self.suggestionsPerProperty)) ?? [:]
            viewModel.filterSuggestions = suggestions(from: events).merging(users.mapValues { $0.map(\.value) }) { $1 }
            return true
        case .user(let id)?:
            return await readTimeline(of: id, for: query, force: force, from: store)
        case .users(let prefix)?:
            return await searchUsers(prefix, for: query, force: force, from: store)
        case .paths(let paths)? where paths.isComplete:
            return await readPaths(paths, for: query, force: force, from: store)
        default:
            return false
        }
    }

    /// How many of the latest events the filter sheet reads its suggested values from.
    static let suggestionWindow = 500
    /// The most values the filter sheet suggests per property.
    static let suggestionsPerProperty = 12

    /// Per built-in and event property a filter may name, the values `events` have for it,
    /// most frequent first.
    private func suggestions(from events: [Event]) -> [String: [String]] {
        var counts: [String: [String: Int]] = [:]
        for event in events {
            counts["app_version", default: [:]][event.appVersion, default: 0] += 1
            counts["platform", default: [:]][event.platform, default: 0] += 1
            for name in app.segmentProperties.event {
                if let value = event.properties[name]?.segmentText { counts[name, default: [:]][value, default: 0] += 1 }
            }
        }
        // The day's versions are in the report already: they count too, whatever the filter.
        for version in (viewModel.report.value?.metrics.versions ?? [:]).keys {
            counts["app_version", default: [:]][version, default: 0] += 1
        }
        return counts.mapValues { values in
            values.filter { !$0.key.isEmpty }.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(Self.suggestionsPerProperty).map(\.key)
        }
    }
}

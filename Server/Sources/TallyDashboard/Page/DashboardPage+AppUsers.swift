import Foundation
import TallyEvent
import TallyStore

extension DashboardPage {
    /// The page's time zone: its address's, or the app's. The user sheet's days and times
    /// are this zone's.
    var timeZone: TimeZone {
        viewModel.query.value.timeZone ?? TimeZone(identifier: app.timeZone) ?? .gmt
    }

    /// Reads the first page of the user `id`'s timeline for `query` (the page's filter
    /// applies), unless it was read for that query already and not `force`. A user the
    /// shown app does not have — never seen, deleted, another app's — reads as
    /// ``UserTimelineReport/unknownUser``. Returns whether it kept what it read: the answer to
    /// a query the page has left since is dropped.
    func readTimeline(of id: String, for query: PageQuery, force: Bool, from store: EventStore) async -> Bool {
        guard force || viewModel.userTimeline?.query != query else { return false }
        let report: UserTimelineReport
        if id.utf8.count > Event.maximumFieldLength {
            report = .unknownUser  // no id is that long: the store is not asked
        } else {
            do {
                let page = try await reads.run { [shownApp] in
                    try await store.users.timeline(app: shownApp, user: id, limit: LoadedTimeline.pageSize, filter: query.filter)
                }
                report = page.map { .read(LoadedTimeline($0)) } ?? .unknownUser
            } catch let error as TallyStoreError {
                report = .failed(error.description)
            } catch {
                report = .failed("The user's events could not be read: \(error)")
            }
        }
        guard viewModel.query.value == query else { return false }
        viewModel.userTimeline = (query, report)
        return true
    }

    /// Reads the events of the open user sheet older than `cursor`, if `cursor` is where its
    /// timeline goes on from (a click on a button since redrawn, or twice on the same one,
    /// reads nothing) and it holds fewer than ``LoadedTimeline/maximumEvents``, then sends the
    /// browser the sheet. What the page has left meanwhile is dropped; a failed read keeps
    /// the events shown and says why.
    func readOlderEvents(before cursor: UserTimeline.Cursor) async {
        let query = viewModel.query.value
        guard let store, case .user(let id)? = query.sheet, let shown = viewModel.userTimeline, shown.query == query,
            case .read(let timeline) = shown.report, timeline.next == cursor, timeline.canReadOlder
        else { return }
        let page: UserTimeline?
        var failure: String?
        do {
            page = try await reads.run { [shownApp, size = timeline.nextReadSize] in
                try await store.users.timeline(app: shownApp, user: id, before: cursor, limit: size, filter: query.filter)
            }
        } catch {
            page = nil
            failure = "The older events could not be read: \((error as? TallyStoreError)?.description ?? "\(error)")"
        }
        // Only onto the timeline the read went on from: not another query's, nor one a
        // read of the same cursor extended first.
        guard viewModel.query.value == query, case .read(var current)? = viewModel.userTimeline?.report, current.next == cursor else { return }
        if let page {
            current.append(page)
            current.failure = nil
            viewModel.userTimeline = (query, .read(current))
        } else if let failure {
            current.failure = failure
            viewModel.userTimeline = (query, .read(current))
        } else {
            viewModel.userTimeline = (query, .unknownUser)  // deleted since the first page
        }
        send(PageMessage(patches: refreshSheet()))
    }

    /// Reads the users of the shown app whose id starts with `prefix` (at most
    /// ``UserSearchReport/resultLimit``), unless they were read for `query` already and not
    /// `force`. Returns whether it kept what it read: the answer to a query the page has left
    /// since (an earlier keystroke's) is dropped.
    func searchUsers(_ prefix: String, for query: PageQuery, force: Bool, from store: EventStore) async -> Bool {
        guard force || viewModel.userSearch?.query != query else { return false }
        let report: UserSearchReport
        if prefix.utf8.count > Event.maximumFieldLength {
            report = .found([])  // no id is that long: the store is not asked
        } else {
            do {
                report = .found(
                    try await reads.run { [shownApp] in
                        try await store.users.search(app: shownApp, prefix: prefix, limit: UserSearchReport.resultLimit)
                    })
            } catch let error as TallyStoreError {
                report = .failed(error.description)
            } catch {
                report = .failed("The users could not be read: \(error)")
            }
        }
        guard viewModel.query.value == query else { return false }
        viewModel.userSearch = (query, report)
        return true
    }
}

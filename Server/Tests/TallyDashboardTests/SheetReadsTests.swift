import Foundation
import TallyEvent
import Testing

@testable import TallyDashboard
@testable import TallyHTTP
@testable import TallyStore

/// How pages read their funnel and paths counts: one read at a time per page with the
/// requests made meanwhile merged into one, pages asking the same at once sharing one read,
/// new events recounting an open sheet at most once per interval, and every read waiting
/// its turn as the page's user's.
@MainActor
@Suite struct SheetReadsTests {
    let store: EventStore
    let app: App
    static let day = "2026-11-20"
    static let sheet = PageQuery.Sheet.paths(PathQuery(start: "Home"))

    init() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tally-test-sheet-reads-\(UUID()).sqlite").path
        store = try EventStore(path: path)
        app = try await store.apps.create(name: "Bills", timeZone: "UTC").app
        let start = try Date("2026-11-20T09:00:00Z", strategy: .iso8601)
        let events = (0..<6).flatMap { user in
            ["Home", "Bills", "Calendar"].enumerated().map { index, screen in
                Event(
                    id: UUID(), name: "screen_view", timestamp: start.addingTimeInterval(Double(user * 600 + index * 60)), userID: "u\(user)",
                    sessionID: "s\(user)", properties: ["screen": .string(screen)])
            }
        }
        try await store.events.insert(events, app: app.id)
    }

    /// A page of the app's paths sheet whose reads go through `admission`, sharing `sheets`.
    func page(admission: ReadAdmission, sheets: SheetReads = SheetReads(), interval: Duration = .seconds(60)) async -> DashboardPage {
        let page = DashboardPage(
            app: app, layout: .default, query: PageQuery(date: CalendarDay(Self.day)!, sheet: Self.sheet), store: store)
        page.reads = PageReads(admission: admission, user: DashboardUserID(rawValue: 1), app: app.id, sheets: sheets, liveSheetInterval: interval)
        await page.refresh()
        return page
    }

    static func admission(running: Int = 4) -> ReadAdmission {
        ReadAdmission(limits: .init(running: running, runningPerReader: running, waitingPerReader: 100, deadline: .seconds(3_600)))
    }

    /// Waits until `condition` holds (a few seconds at most).
    func until(_ condition: () -> Bool) async {
        for _ in 0..<2_000 where !condition() { try? await Task.sleep(for: .milliseconds(5)) }
    }

    /// Twenty changes of the sheet's form while its first read waits its turn run as two
    /// reads, not twenty: the one waiting, and one for the query shown once it ends, which
    /// every change made meanwhile merges into.
    @Test func aPageReadsItsSheetOneReadAtATime() async throws {
        let admission = Self.admission(running: 1)
        let page = await page(admission: admission)
        #expect(admission.started == 2, "the report and the sheet's counts")
        let (opened, open) = AsyncStream.makeStream(of: Void.self)
        let holding = Task { try await admission.run(ReadAdmission.Reader(app: 0, holder: .liveUpdates)) { for await _ in opened {} } }
        await until { admission.counts.running == 1 }
        for change in 0..<20 {
            let direction = change % 2 == 0 ? "before" : "after"
            try page.receive(
                BrowserEvent(section: nil, name: "paths", value: "start=Home&kind=screen&direction=\(direction)&depth=\(change % 5 + 1)"))
            await until { admission.counts.waiting >= 1 }
            for _ in 0..<10 { await Task.yield() }
        }
        let shown = page.viewModel.query.value
        open.finish()
        _ = try await holding.value
        await until { page.viewModel.paths?.query == shown && !page.isReadingSheet }
        #expect(admission.started == 5, "\(admission.started - 3) reads for 20 changes")
        #expect(page.sheetDemand == nil)
        guard case .counted(let paths)? = page.viewModel.paths?.report else {
            Issue.record("no paths counted")
            return
        }
        #expect(paths.direction == .after && paths.levels.count == 5, "the last change's counts")
    }

    /// Eight tabs of the same sheet asking while a read is in flight wait for that one read.
    @Test func pagesAskingTheSameCountsShareOneRead() async throws {
        let admission = Self.admission(running: 1)
        let sheets = SheetReads()
        var pages: [DashboardPage] = []
        for _ in 0..<8 { pages.append(await page(admission: admission, sheets: sheets)) }
        let before = admission.started
        // The one slot is taken: the first page's read waits, and the others join it.
        let (opened, open) = AsyncStream.makeStream(of: Void.self)
        let holding = Task { try await admission.run(ReadAdmission.Reader(app: 0, holder: .liveUpdates)) { for await _ in opened {} } }
        await until { admission.counts.running == 1 }
        let reading = pages.map { page in Task { await page.loadSheetData(force: true) } }
        await until { sheets.paths.counts.callers == 8 }
        #expect(sheets.paths.counts == (1, 8))
        open.finish()
        _ = try await holding.value
        for read in reading { #expect(await read.value) }
        #expect(admission.started == before + 2, "the holding read and one count for 8 pages")
        #expect(sheets.paths.counts == (0, 0))
    }

    /// Reports arriving every tick recount the open sheet once at once and once more when
    /// the interval is over, not once per report; the recount shows the new events.
    @Test func newEventsRecountAnOpenSheetAtMostOncePerInterval() async throws {
        let admission = Self.admission()
        let page = await page(admission: admission, interval: .seconds(2))
        let before = admission.started
        try await store.events.insert(
            [
                Event(
                    id: UUID(), name: "screen_view", timestamp: try Date("2026-11-20T15:00:00Z", strategy: .iso8601), userID: "late",
                    sessionID: "late", properties: ["screen": .string("Home")])
            ], app: app.id)
        let query = page.viewModel.query.value.with { $0.sheet = nil }
        let report = try await DayReport.load(from: store, app: app.id, layout: .default, query: query)
        for _ in 0..<10 { page.eventBus.post(ReportArrived(query: query, report: report)) }
        await until { admission.started >= before + 2 }
        #expect(admission.started == before + 2, "one recount at once, one at the interval's end")
        await until { !page.isReadingSheet }
        guard case .counted(let paths)? = page.viewModel.paths?.report else {
            Issue.record("no paths counted")
            return
        }
        #expect(paths.sessions == 7)
    }
}

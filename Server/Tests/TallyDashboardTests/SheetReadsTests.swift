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
        app = try await store.createApp(name: "Bills", timeZone: "UTC").app
        let start = try Date("2026-11-20T09:00:00Z", strategy: .iso8601)
        let events = (0..<6).flatMap { user in
            ["Home", "Bills", "Calendar"].enumerated().map { index, screen in
                Event(
                    id: UUID(), name: "screen_view", timestamp: start.addingTimeInterval(Double(user * 600 + index * 60)), userID: "u\(user)",
                    sessionID: "s\(user)", properties: ["screen": .string(screen)])
            }
        }
        try await store.insert(events, app: app.id)
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
        ReadAdmission(limits: .init(running: running, runningPerReader: running, waitingPerReader: 100, deadline: .seconds(60)))
    }

    /// Waits until `condition` holds (a few seconds at most).
    func until(_ condition: () -> Bool) async {
        for _ in 0..<2_000 where !condition() { try? await Task.sleep(for: .milliseconds(5)) }
    }

    /// Twenty recounts asked at once run as at most two reads: the one running and the one
    /// that merges every request made meanwhile.
    @Test func aPageReadsItsSheetOneReadAtATime() async throws {
        let admission = Self.admission()
        let page = await page(admission: admission)
        #expect(admission.started == 2, "the report and the sheet's counts")
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<20 { group.addTask { await page.loadSheetData(force: true) } }
        }
        #expect((3...4).contains(admission.started), "\(admission.started - 2) reads for 20 requests")
        #expect(page.sheetDemand == nil && !page.isReadingSheet)
        guard case .counted(let paths)? = page.viewModel.paths?.report else {
            Issue.record("no paths counted")
            return
        }
        #expect(paths.sessions == 6)
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
        try await store.insert(
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

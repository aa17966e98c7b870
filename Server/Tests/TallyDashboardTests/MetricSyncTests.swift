import Componentry
import ComponentryList
import Foundation
import TallyEvent
import Testing

@testable import TallyDashboard

/// A headline shown in several places — tabs of the same app and day, a detail sheet — is
/// one identity on the dashboard's sync channel: a new value read by any page moves every copy.
@MainActor
@Suite struct MetricSyncTests {
    func report(dau: Int, date: String = "2026-11-20") throws -> DayReport {
        try DayReport(metrics: LiveUpdatesTests.CountingLoader.metrics(dau: dau, date: date))
    }

    /// Waits until `condition` holds, for at most 5 seconds.
    func eventually(_ condition: @MainActor () -> Bool) async throws {
        for _ in 0..<500 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
    }

    func dau(_ html: String) -> String? {
        html.firstMatch(of: /data-metric="dau">([^<]*)</).map { String($0.1) }
    }

    @Test func aNewValueReadByOneTabMovesTheOthers() async throws {
        let channel = SyncChannel()
        let first = DashboardPage(app: .test, layout: .default, query: PageQuery(date: CalendarDay("2026-11-20")!), channel: channel)
        let second = DashboardPage(
            app: .test, layout: .default, query: PageQuery(date: CalendarDay("2026-11-20")!, from: CalendarDay("2026-11-01")), channel: channel)
        let otherDay = DashboardPage(app: .test, layout: .default, query: PageQuery(date: CalendarDay("2026-11-19")!), channel: channel)
        _ = first.show(try report(dau: 1))
        _ = second.show(try report(dau: 1))
        _ = otherDay.show(try report(dau: 1, date: "2026-11-19"))
        var sent: [DOMPatch] = []
        second.outbox = { sent += $0.patches }

        _ = first.show(try report(dau: 7))
        try await eventually { dau(second.html) == "7" }
        #expect(dau(second.html) == "7", "another tab of the same day, another range")
        #expect(sent.contains { if case .replace(_, let html) = $0 { html.contains(#"data-metric="dau">7<"#) } else { false } })
        try await Task.sleep(for: .milliseconds(50))
        #expect(dau(otherDay.html) == "1", "another day is another number")
    }

    @Test func theDetailSheetMovesWithItsHeadline() async throws {
        let channel = SyncChannel()
        let reader = DashboardPage(
            app: .test, layout: .default, query: PageQuery(date: CalendarDay("2026-11-20")!, sheet: .metric("dau")), channel: channel)
        let other = DashboardPage(app: .test, layout: .default, query: PageQuery(date: CalendarDay("2026-11-20")!), channel: channel)
        _ = reader.show(try report(dau: 1))
        _ = other.show(try report(dau: 1))
        #expect(reader.viewModel.detail?.value.text == "1")
        _ = other.show(try report(dau: 5))
        try await eventually { reader.sheetHTML.contains(#"data-metric="dau">5<"#) }
        #expect(reader.viewModel.detail?.value.text == "5")
        #expect(reader.sheetHTML.contains(#"data-metric="dau">5<"#))
    }

    /// Copies leave the pool with their page: many tabs opened and closed leave nothing.
    @Test func closedPagesLeaveThePool() throws {
        let channel = SyncChannel()
        for _ in 0..<200 {
            let page = DashboardPage(app: .test, layout: .default, query: PageQuery(date: CalendarDay("2026-11-20")!), channel: channel)
            _ = page.show(try report(dau: 1))
        }
        #expect(channel.snapshot().objectCount == 0)
        #expect(channel.snapshot().identityCount == 0)
    }
}

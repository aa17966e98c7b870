import Foundation
import TallyEvent
import TallyStore
import Testing

@testable import TallyDashboard

/// The members sheet, driven on a page as the socket drives it: an owner's changes, and
/// what the store refuses, said to the browser.
@MainActor @Suite struct MembersSheetTests {
    @Test func anOwnerAddsChangesAndRemovesMembersAndIsToldWhatIsRefused() async throws {
        let fixture = try await DashboardFixture()
        let store = fixture.store
        let bo = try await store.accounts.create(name: "bo", passwordHash: "h")
        let page = DashboardPage(
            app: fixture.app.app, layout: .default, query: PageQuery(date: CalendarDay(shown: DashboardFixture.day)!), store: store,
            role: .owner)
        var errors: [String] = []
        page.outbox = { message in errors += message.error.map { [$0] } ?? [] }
        try page.receive(BrowserEvent(section: nil, name: "sheet", value: "members"))
        await page.refresh()

        await page.setRole(.editor, ofMemberNamed: "bo")
        #expect(try await store.members.role(of: bo.id, in: fixture.app.app.id) == .editor)
        #expect(page.sheetHTML.contains(#"class="member-name">bo<"#))
        await page.setRole(.viewer, ofMemberNamed: "nobody")
        #expect(errors.last == "No dashboard user is named \u{201C}nobody\u{201D}.")
        await page.removeMember(named: "ana")
        #expect(errors.last == TallyStoreError.lastOwner(fixture.app.app.id).description)
        await page.removeMember(named: "bo")
        #expect(try await store.members.list(app: fixture.app.app.id).map(\.user.name) == ["ana"])
        #expect(!page.sheetHTML.contains(#"class="member-name">bo<"#))
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TallyEvent
import TallyHTTP
import Testing

@testable import TallyDashboard

/// The dashboard page under its `Content-Security-Policy`: its layout is `<style>` elements
/// with the nonce the policy names, new for each response, and nothing inline the policy
/// would block.
@Suite struct PageContentSecurityPolicyTests {
    @Test func thePageNamesANewNonceThatItsStylesAndScriptCarry() async throws {
        let fixture = try await DashboardFixture()
        try await fixture.test { client in
            let cookie = try await client.signIn()
            var nonces: [String] = []
            for _ in 0..<2 {
                let page = try await client.execute(uri: fixture.pagePath, method: .get, headers: [.cookie: cookie])
                #expect(page.status == .ok)
                let policy = try #require(page.headers[.contentSecurityPolicy])
                let nonce = try #require(policy.firstMatch(of: /style-src 'self' 'nonce-([A-Za-z0-9+\/]{22}==)';/)?.1)
                #expect(!policy.contains("unsafe"))
                #expect(page.headers[.xContentTypeOptions] == "nosniff", "the other security headers stay")
                #expect(page.headers[.init("X-Frame-Options")!] == "DENY")
                let styles = page.text.components(separatedBy: "<style").count - 1
                #expect(styles > 0 && styles == page.text.components(separatedBy: "class=\"list-component\"").count - 1, "one per section")
                #expect(page.text.components(separatedBy: "<style nonce=\"\(nonce)\">").count - 1 == styles)
                #expect(page.text.contains("<script src=\"/assets/dashboard.js\" nonce=\"\(nonce)\" defer></script>"))
                #expect(!page.text.contains(" style="), "a style attribute applies under no nonce")
                nonces.append(String(nonce))
            }
            #expect(nonces[0] != nonces[1])
        }
    }

    /// The user sheets bring nothing inline the policy would block, whatever the ids and
    /// properties they show: no script but the page's, no style without the nonce.
    @Test(arguments: ["&sheet=user&user=%3Cscript%3Ealert(1)%3C%2Fscript%3E", "&sheet=users&prefix=%3C"])
    func theUserSheetsBringNothingInline(sheet: String) async throws {
        let fixture = try await DashboardFixture()
        let noon = try Date("2026-11-20T12:00:00Z", strategy: .iso8601)
        try await fixture.store.events.insert(
            [
                Event(
                    id: UUID(), name: "screen_view", timestamp: noon, userID: "<script>alert(1)</script>", sessionID: "<style>",
                    properties: ["screen": "<style>body{}</style>", "x": #"" style="color:red"#])
            ], app: fixture.app.app.id)
        try await fixture.test { client in
            let cookie = try await client.signIn()
            let page = try await client.execute(uri: fixture.pagePath + sheet, method: .get, headers: [.cookie: cookie])
            #expect(page.status == .ok)
            #expect(page.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "the id is shown, escaped")
            #expect(page.text.components(separatedBy: "<script").count == 2, "the page's own script only")
            #expect(!page.text.contains(#" style=""#), "a style attribute applies under no nonce")
            if sheet.contains("sheet=user&") { #expect(page.text.contains(#"style=&quot;color:red"#), "the property is shown, escaped") }
            #expect(!page.text.contains("<style>"), "every style element carries the nonce")
        }
    }

    /// The paths sheet draws SVG columns of attributes only, whatever the screens it shows:
    /// nothing inline the policy would block, and every name escaped.
    @Test(arguments: ["%3Cstyle%3Ebody%7B%7D%3C%2Fstyle%3E", "Home"])
    func thePathsSheetBringsNothingInline(start: String) async throws {
        let fixture = try await DashboardFixture()
        let screens = ["<style>body{}</style>", "Home", #"" style="color:red"#, "<script>alert(1)</script>"]
        try await fixture.insertSession(of: screens)
        try await fixture.test { client in
            let cookie = try await client.signIn()
            let page = try await client.execute(
                uri: fixture.pagePath + "&sheet=paths&start=\(start)&kind=screen", method: .get, headers: [.cookie: cookie])
            #expect(page.status == .ok)
            #expect(page.text.contains(#"<svg class="paths""#), "the columns are drawn")
            #expect(page.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "the screens are shown, escaped")
            #expect(page.text.contains(#"data-step="&quot; style=&quot;color:red""#))
            #expect(page.text.contains(#"class="detail paths-link""#), "the Screens section links its rows")
            #expect(page.text.components(separatedBy: "<script").count == 2, "the page's own script only")
            #expect(!page.text.contains(#" style=""#), "a style attribute applies under no nonce")
            #expect(!page.text.contains("<style>"), "every style element carries the nonce")
        }
    }

    /// Patches bring sections without a nonce (the socket does not know the page's): the
    /// page's script gives them its own.
    @Test @MainActor func patchesBringStylesWithoutANonce() {
        let page = DashboardPage(date: "2026-11-20")
        let html = page.document(csrf: "token", styleNonce: "abc")
        #expect(html.contains("<style nonce=\"abc\">"))
        #expect(page.html.contains("<style>#sections-c-app-items{display:grid;"))
        #expect(!page.html.contains("nonce"))
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TallyEvent
import TallyStore
import Testing

@testable import TallyDashboard

/// The dashboard over HTTP, as a browser uses it: sign-in, the pages and their deep links,
/// and what a stranger or a forged form gets.
@Suite struct DashboardServerTests {
    @Test func signingInSetsAStrictHttpOnlyCookieAndLandsOnTheFirstApp() async throws {
        let fixture = try await DashboardFixture()
        try await fixture.test { client in
            let cookie = try await client.signIn()
            let login = try await client.execute(uri: "/login", method: .get)
            #expect(login.cookieAttributes(DashboardFixture.cookies.csrf).isSuperset(of: ["httponly", "samesite=strict"]))

            let root = try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie])
            #expect(root.status == .found)
            #expect(root.headers[.location] == "/apps/\(fixture.app.app.id.rawValue)")

            let page = try await client.execute(uri: fixture.pagePath, method: .get, headers: [.cookie: cookie])
            #expect(page.status == .ok)
            #expect(page.text.contains(#"data-metric="dau">2<"#))
            #expect(page.text.contains(#"data-section="health""#))
            #expect(page.text.contains("<h1>Bills &lt;&amp; Co&gt;</h1>"), "the app's name is escaped")
            #expect(page.text.contains("<svg"), "the trend is drawn on the server")
        }
    }

    @Test func theSessionCookieIsHttpOnlyAndStrict() async throws {
        let fixture = try await DashboardFixture()
        try await fixture.test { client in
            let (answer, _) = try await client.postSignIn()
            #expect(answer.status == .found)
            #expect(answer.cookieAttributes(DashboardFixture.cookies.session).isSuperset(of: ["httponly", "samesite=strict", "path=/"]))
        }
    }

    /// Served over HTTPS, every cookie is `Secure` and `__Host-` prefixed (so it is sent over
    /// HTTPS only, for this host only), and an unprefixed cookie, which another host of the
    /// domain or plain HTTP could have set, names no session.
    @Test func secureCookiesAreSecureAndHostPrefixed() async throws {
        let fixture = try await DashboardFixture(secureCookies: true)
        let cookies = DashboardCookies(secure: true)
        try await fixture.test { client in
            let (answer, csrf) = try await client.postSignIn(cookies: cookies)
            #expect(answer.status == .found)
            for name in [cookies.session, cookies.device] {
                #expect(name.hasPrefix("__Host-"))
                let attributes = answer.cookieAttributes(name)
                #expect(attributes.isSuperset(of: ["secure", "httponly", "samesite=strict", "path=/"]), "\(name)")
                #expect(!attributes.contains { $0.hasPrefix("domain=") })
            }
            let token = try #require(answer.cookie(cookies.session))
            let page = try await client.execute(
                uri: fixture.pagePath, method: .get, headers: [.cookie: "\(cookies.csrf)=\(csrf); \(cookies.session)=\(token)"])
            #expect(page.status == .ok)
            let unprefixed = try await client.execute(uri: fixture.pagePath, method: .get, headers: [.cookie: "tally_session=\(token)"])
            #expect(unprefixed.headers[.location] == "/login")
        }
    }

    @Test func aWrongPasswordShowsTheFormAgainWithAnError() async throws {
        let fixture = try await DashboardFixture()
        try await fixture.test { client in
            let (answer, _) = try await client.postSignIn(password: "wrong-password")
            #expect(answer.status == .unauthorized)
            #expect(answer.text.contains(#"class="error""#))
            #expect(answer.cookie(DashboardFixture.cookies.session) == nil)
        }
    }

    /// A form posted from another site carries the user's cookies at most, never the token
    /// of the form the server gave.
    @Test(arguments: ["", "x", String(repeating: "a", count: 32)])
    func aFormWithoutItsCSRFTokenIsRefused(token: String) async throws {
        let fixture = try await DashboardFixture()
        try await fixture.test { client in
            let (answer, _) = try await client.postSignIn(token: token)
            #expect(answer.status == .forbidden)
            #expect(answer.cookie(DashboardFixture.cookies.session) == nil)
        }
    }

    @Test func everyDashboardRouteNeedsASession() async throws {
        let fixture = try await DashboardFixture()
        try await fixture.test { client in
            for path in ["/", fixture.pagePath, "/apps/1?date=2026-11-20&sheet=date"] {
                let answer = try await client.execute(uri: path, method: .get, headers: [.cookie: "\(DashboardFixture.cookies.session)=forged"])
                #expect(answer.status == .found, "\(path)")
                #expect(answer.headers[.location] == "/login", "\(path)")
            }
            let csv = try await client.execute(uri: "/apps/1/metrics/dau.csv", method: .get)
            #expect(csv.status == .unauthorized)
            let logout = try await client.execute(uri: "/logout", method: .post)
            #expect(logout.status == .forbidden)
        }
    }

    @Test(arguments: [
        ("date=2026-13-01", "date"), ("date=2026-02-30", "date"), ("date=99999999999999999999-01-01", "date"),
        ("date=2026-11-20&from=2026-11-21", "from"), ("date=2026-11-20&from=2020-01-01", "from"),
        ("date=2026-11-20&tz=Mars/Olympus", "tz"), ("date=2026-11-20&sheet=%3Cscript%3E", "sheet"),
        ("date=2026-11-20&sheet=metric", "metric"),
        ("date=2026-11-20&sheet=user&user=" + String(repeating: "a", count: PageQuery.maximumUserText + 1), "user"),
        ("date=2026-11-20&sheet=users&prefix=" + String(repeating: "a", count: 10_000), "prefix"),
        ("date=2026-11-20&sheet=paths&start=Home&depth=0", "depth"), ("date=2026-11-20&sheet=paths&start=Home&depth=6", "depth"),
        ("date=2026-11-20&sheet=paths&start=Home&depth=-2", "depth"),
        ("date=2026-11-20&sheet=paths&start=Home&depth=99999999999999999999", "depth"),
        ("date=2026-11-20&sheet=paths&start=Home&kind=page", "kind"), ("date=2026-11-20&sheet=paths&start=Home&direction=up", "direction"),
        ("date=2026-11-20&sheet=paths&start=" + String(repeating: "a", count: 10_000), "start"),
    ])
    func aQueryThePageCannotShowIsA400NamingTheParameter(query: String, parameter: String) async throws {
        let fixture = try await DashboardFixture()
        try await fixture.test { client in
            let cookie = try await client.signIn()
            let answer = try await client.execute(uri: "/apps/\(fixture.app.app.id.rawValue)?\(query)", method: .get, headers: [.cookie: cookie])
            #expect(answer.status == .badRequest)
            #expect(answer.text.contains(parameter))
        }
    }

    @Test(arguments: [
        "/apps/999", "/apps/abc", "/apps/-1", "/apps/99999999999999999999999", "/apps/-9223372036854775808",
        "/apps/-9223372036854775808/metrics/dau.csv",
    ])
    func anUnknownAppIsA404(path: String) async throws {
        let fixture = try await DashboardFixture()
        try await fixture.test { client in
            let cookie = try await client.signIn()
            #expect(try await client.execute(uri: path, method: .get, headers: [.cookie: cookie]).status == .notFound)
        }
    }

    /// The page `tally serve` answers lists the app's saved segments, from the store.
    @Test func thePageListsTheAppsSavedSegments() async throws {
        let fixture = try await DashboardFixture()
        try await fixture.store.segments.save(app: fixture.app.app.id, name: "iOS <users>", filter: SegmentFilter([.is("platform", "ios")]))
        try await fixture.test { client in
            let cookie = try await client.signIn()
            let page = try await client.execute(uri: fixture.pagePath, method: .get, headers: [.cookie: cookie])
            #expect(page.text.contains(#"data-event="filters" data-value="platform==ios""#))
            #expect(page.text.contains(">iOS &lt;users&gt;</a>"))
        }
    }

    /// A sheet's address is part of the page's, so a reload or a shared link opens it again.
    @Test func deepLinksOpenTheirSheet() async throws {
        let fixture = try await DashboardFixture()
        try await fixture.test { client in
            let cookie = try await client.signIn()
            let dates = try await client.execute(uri: fixture.pagePath + "&sheet=date", method: .get, headers: [.cookie: cookie])
            #expect(dates.text.contains(#"data-sheet="date""#))
            #expect(dates.text.contains(#"data-value="yesterday""#))
            let sections = try await client.execute(uri: fixture.pagePath + "&sheet=sections", method: .get, headers: [.cookie: cookie])
            #expect(sections.text.contains(#"<ol id="section-manager">"#))
            let metric = try await client.execute(uri: fixture.pagePath + "&sheet=metric&metric=bills", method: .get, headers: [.cookie: cookie])
            #expect(metric.text.contains(#"data-sheet="metric""#))
            #expect(metric.text.contains("Daily bill_created events"))
            let csvPath = try #require(metric.text.firstMatch(of: /download href="([^"]+)"/)?.1)
            let csv = try await client.execute(
                uri: String(csvPath).replacingOccurrences(of: "&amp;", with: "&"), method: .get, headers: [.cookie: cookie])
            #expect(csv.status == .ok)
            #expect(csv.headers[.contentType] == "text/csv; charset=utf-8")
            #expect(csv.text.hasPrefix("date,value\n"))
            #expect(csv.text.contains("\n2026-11-20,2\n"))
        }
    }

    /// The user sheets are deep links too: a user's timeline, or "no user" for an id the app
    /// does not have (another app's included), never an error page; the search likewise.
    @Test func userSheetsAreDeepLinks() async throws {
        let fixture = try await DashboardFixture()
        let other = try await fixture.store.apps.create(name: "Other", timeZone: "UTC")
        try await fixture.store.events.insert([Event(id: UUID(), name: "secret_event", timestamp: Date(), userID: "zed")], app: other.app.id)
        try await fixture.test { client in
            let cookie = try await client.signIn()
            func page(_ sheet: String) async throws -> TestResponse {
                try await client.execute(uri: fixture.pagePath + sheet, method: .get, headers: [.cookie: cookie])
            }
            let ann = try await page("&sheet=user&user=ann")
            #expect(ann.status == .ok)
            #expect(ann.text.contains(#"data-sheet="user""#))
            #expect(ann.text.contains(#"<span class="event-name">bill_created</span><ul class="event-properties"><li>note=lunch</li></ul>"#))
            for id in ["zed", "%3Cscript%3E", "nobody"] {
                let unknown = try await page("&sheet=user&user=\(id)")
                #expect(unknown.status == .ok, "\(id)")
                #expect(unknown.text.contains("No user <span class=\"user-id\">"), "\(id)")
                #expect(!unknown.text.contains("secret_event") && !unknown.text.contains("First seen"), "\(id)")
            }
            // The live feed links both users: the search's list is the sheet's.
            let search = try await page("&sheet=users&prefix=a").text.split(separator: #"id="user-results""#).last ?? ""
            #expect(search.contains(#"data-value="user:ann""#) && !search.contains(#"data-value="user:bob""#))
            #expect(try await page("&sheet=users&prefix=z").text.contains("No user id starts with “z”."))
        }
    }

    /// The paths sheet is a deep link: its address names the start, kind, direction and
    /// depth, and the page shows the store's counts; a start nobody showed is said so.
    @Test func thePathsSheetIsADeepLink() async throws {
        let fixture = try await DashboardFixture()
        try await fixture.insertSession(of: ["Home", "Bills", "Home"])
        try await fixture.test { client in
            let cookie = try await client.signIn()
            func page(_ sheet: String) async throws -> String {
                try await client.execute(uri: fixture.pagePath + sheet, method: .get, headers: [.cookie: cookie]).text
            }
            let home = try await page("&sheet=paths&start=Home&kind=screen&depth=2")
            #expect(home.contains(#"data-sheet="paths""#))
            #expect(home.contains(#"<g class="path-step start" data-level="0" data-step="Home" data-sessions="1">"#))
            #expect(home.contains(#"<g class="path-step" data-level="1" data-step="Bills" data-sessions="1">"#))
            #expect(home.contains(#"<g class="path-step" data-level="2" data-step="Home" data-sessions="1">"#))
            #expect(!home.contains(#"data-level="3""#), "two levels")
            let before = try await page("&sheet=paths&start=Bills&kind=screen&direction=before&depth=2")
            #expect(before.contains(#"<g class="path-step special" data-level="2" data-step="$start" data-sessions="1">"#))
            #expect(try await page("&sheet=paths&start=Nowhere").contains("No session showed this screen in the range."))
        }
    }

    /// An owner's download of a user's data is the store's NDJSON of them, every page of a
    /// busy user's events streamed whole; a user the app does not have is a 404 that says so.
    @Test func anOwnerDownloadsAUsersDataOrLearnsThereIsNone() async throws {
        let fixture = try await DashboardFixture()
        let app = fixture.app.app.id
        let noon = try Date("2026-11-20T12:00:00Z", strategy: .iso8601)
        let events = (0..<10_000).map { index in  // more than two pages of the export
            Event(id: UUID(), name: "tap", timestamp: noon.addingTimeInterval(Double(index) / 1_000), userID: "bot")
        }
        try await fixture.store.events.insert(events, app: app)
        var bytes: [UInt8] = []
        _ = try await fixture.store.userData.export(app: app, user: "bot") { bytes += $0 }
        let expected = bytes
        try await fixture.test { client in
            let cookie = try await client.signIn()
            let answer = try await client.execute(uri: "/apps/\(app.rawValue)/users/bot/data", method: .get, headers: [.cookie: cookie])
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType] == "application/x-ndjson; charset=utf-8")
            #expect(Array(buffer: answer.body) == expected)
            #expect(answer.text.split(separator: "\n").count == events.count + 2, "the user, the events and the summary")
            let missing = try await client.execute(uri: "/apps/\(app.rawValue)/users/nobody/data", method: .get, headers: [.cookie: cookie])
            #expect(missing.status == .notFound)
            #expect(missing.text.contains("No such user in this app."))
        }
    }

    @Test func signingOutEndsTheSession() async throws {
        let fixture = try await DashboardFixture()
        try await fixture.test { client in
            let cookie = try await client.signIn()
            let csrf = try #require(cookie.firstMatch(of: /tally_csrf=([^;]+)/)?.1)
            let out = try await client.execute(
                uri: "/logout", method: .post, headers: [.contentType: "application/x-www-form-urlencoded", .cookie: cookie],
                body: ByteBuffer(string: "csrf=\(csrf)"))
            #expect(out.status == .found)
            let page = try await client.execute(uri: fixture.pagePath, method: .get, headers: [.cookie: cookie])
            #expect(page.headers[.location] == "/login", "the old cookie names no session any more")
        }
    }
}

import Componentry
import ComponentryList
import Foundation
import TallyEvent
import TallyStore
import Testing

@testable import TallyDashboard

/// The user sheet and the user search on the server, driven as the browser drives them: a
/// user's timeline by day and session under the page's filter, its pages up to the bound, the
/// search by prefix, the links of every user id shown, and hostile ids and prefixes.
@MainActor
@Suite struct UserSheetTests {
    let store: EventStore
    let app: App
    static let day = "2026-11-20"
    /// An id with every character HTML and URLs treat specially.
    static let hostile = #"<b>"Zoë" & 'co'</b> +%20#?="#

    /// ann has events on two days in three sessions and one without a session; the hostile
    /// user one `screen_view`. Another app has a user `zed`.
    init() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tally-test-users-\(UUID()).sqlite").path
        store = try EventStore(path: path)
        let created = try await store.apps.create(name: "Bills", timeZone: "UTC")
        app = try await store.apps.update(created.app.id, segmentProperties: SegmentProperties(event: ["method"], user: ["plan"]))
        try await store.events.insert(
            [
                Self.event("login", "ann", "2026-11-19T09:00:00Z", session: "s1", version: "1.9", platform: "android", ["method": "apple"]),
                Self.event("screen_view", "ann", "2026-11-19T09:00:30Z", session: "s1", version: "1.9", platform: "android", ["screen": "Home"]),
                Self.event("identify", "ann", "2026-11-20T10:00:00Z", ["plan": "pro"]),
                Self.event("login", "ann", "2026-11-20T10:00:05Z", session: "s2", ["method": "apple"]),
                Self.event("screen_view", "ann", "2026-11-20T10:01:00Z", session: "s3", platform: "android", ["screen": "Bills"]),
                Self.event("bill_created", "ann", "2026-11-20T10:02:00Z", session: "s2", version: "2.1", ["note": "<script>alert(1)</script>"]),
                Self.event("logout", "ann", "2026-11-20T20:00:00Z", session: "s2", version: "2.1"),
                Self.event("login", "bob", "2026-11-20T11:00:00Z", session: "b1"),
                Self.event(
                    "screen_view", Self.hostile, "2026-11-20T12:00:00Z", session: #""><script>x</script>"#,
                    ["screen": "<img src=x onerror=alert(1)>"]),
            ],
            app: app.id)
        let other = try await store.apps.create(name: "Other", timeZone: "UTC")
        try await store.events.insert([Self.event("login", "zed", "2026-11-20T12:00:00Z")], app: other.app.id)
    }

    static func event(
        _ name: String, _ user: String, _ time: String, session: String? = nil, version: String = "2.0", platform: String = "ios",
        _ properties: [String: PropertyValue] = [:]
    ) -> Event {
        let time = try! Date(time, strategy: .iso8601)
        return Event(
            id: UUID(), name: name, timestamp: time, userID: user, sessionID: session, appVersion: version, platform: platform,
            properties: properties)
    }

    /// A page of the app on `sheet`, its sheet's data read and drawn.
    func page(_ sheet: PageQuery.Sheet, filter: String = "", timeZone: TimeZone? = nil, role: AppRole = .viewer) async throws -> DashboardPage {
        let query = PageQuery(date: CalendarDay(Self.day)!, timeZone: timeZone, filter: try SegmentFilter(parsing: filter), sheet: sheet)
        let page = DashboardPage(app: app, layout: .default, query: query, store: store, role: role)
        await page.loadSheetData()
        _ = page.refreshSheet()
        return page
    }

    /// The values of `attribute` in `html`, in document order.
    func values(of attribute: String, in html: String) -> [String] {
        html.matches(of: try! Regex(#"\#(attribute)="([^"]*)""#)).compactMap { $0.output[1].substring.map(String.init) }
    }

    /// The event names of `html`'s timeline, in document order.
    func eventNames(_ html: String) -> [String] {
        html.matches(of: /<span class="event-name">([^<]*)<\/span>/).map { String($0.1) }
    }

    // MARK: The timeline

    /// Days newest first in the page's zone; in a day the session of the newest event first,
    /// the events without one as "No session"; the header says what the store knows.
    @Test func theTimelineGroupsEventsByDayAndSession() async throws {
        let page = try await page(.user("ann"))
        let html = page.sheetHTML
        #expect(html.contains(#"data-sheet="user""#))
        #expect(values(of: "data-day", in: html) == ["2026-11-20", "2026-11-19"])
        #expect(values(of: "data-session", in: html) == ["s2", "s3", "", "s1"])
        #expect(eventNames(html) == ["logout", "bill_created", "login", "screen_view", "identify", "screen_view", "login"])
        #expect(html.contains("<span class=\"session-id\">No session</span>"))
        #expect(html.contains("<span class=\"detail\">3 events, 10:00:05–20:00:00</span>"))
        #expect(html.contains(#"<time datetime="2026-11-20T10:02:00Z">10:02:00</time><span class="event-name">bill_created</span>"#))
        #expect(html.contains(#"<span class="event-name">screen_view</span><span class="event-screen">Bills</span></li>"#), "the screen, not screen=")
        #expect(html.contains("<li>method=apple</li>"))
        #expect(html.contains("<dt>First seen</dt><dd>19 Nov 2026, 09:00:00</dd>"))
        #expect(html.contains("<dt>Last version</dt><dd>2.1</dd>"), "the newest event's")
        #expect(html.contains("<dt>Platform</dt><dd>ios</dd>"))
        #expect(html.contains("<dt>plan</dt><dd>pro</dd>"))
        #expect(!html.contains(#"id="older-events""#), "every event is read")

        // In Tokyo the evening's logout is the next morning.
        let tokyo = try await self.page(.user("ann"), timeZone: TimeZone(identifier: "Asia/Tokyo"))
        #expect(values(of: "data-day", in: tokyo.sheetHTML) == ["2026-11-21", "2026-11-20", "2026-11-19"])
        #expect(tokyo.sheetHTML.contains(#">05:00:00</time><span class="event-name">logout</span>"#))
    }

    /// An owner's sheet links the user's export and holds the form that deletes the user's
    /// data (the browser confirms first), the id percent-encoded; a viewer's and an editor's
    /// have neither.
    @Test func onlyAnOwnersSheetExportsOrDeletesTheUser() async throws {
        let owner = try await page(.user(Self.hostile), role: .owner).sheetHTML
        let path = "/apps/\(app.id.rawValue)/users/\(Self.hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
        #expect(values(of: "href", in: owner).contains(path + "/data"))
        #expect(values(of: "action", in: owner) == [path + "/delete"])
        #expect(owner.contains(#"data-confirm="Delete everything stored about this user"#))
        for role in [AppRole.viewer, .editor] {
            let page = try await page(.user(Self.hostile), role: role)
            #expect(page.sheetHTML.contains("user-facts") && !page.sheetHTML.contains("user-export") && !page.sheetHTML.contains("user-delete"))
        }
    }

    /// Sessions that interleave (two devices) are each one group, by their newest event.
    @Test func interleavedSessionsAreGroupedWhole() {
        let events = [("a", "s1", "12:00:03"), ("b", "s2", "12:00:02"), ("c", nil, "12:00:01"), ("d", "s1", "12:00:00")].map {
            Self.event($0.0, "ann", "2026-11-20T\($0.2)Z", session: $0.1)
        }
        let days = TimelineView.days(of: events, in: .gmt)
        #expect(days.map(\.day) == [CalendarDay("2026-11-20")!])
        #expect(days.first?.sessions.map(\.id) == ["s1", "s2", nil])
        #expect(days.first?.sessions.map { $0.events.map(\.name) } == [["a", "d"], ["b"], ["c"]])
    }

    /// The page's filter narrows the timeline: an event condition to its events, a user
    /// condition to all of them or none.
    @Test func thePagesFilterApplies() async throws {
        let android = try await page(.user("ann"), filter: "platform==android")
        #expect(eventNames(android.sheetHTML) == ["screen_view", "screen_view", "login"])
        #expect(android.sheetHTML.contains("Only the events that match Platform is android: the page&#39;s filter."))
        let pro = try await page(.user("ann"), filter: "plan==pro")
        #expect(eventNames(pro.sheetHTML).count == 7)
        let free = try await page(.user("ann"), filter: "plan==free")
        #expect(eventNames(free.sheetHTML).isEmpty)
        #expect(free.sheetHTML.contains("No events of this user match the page&#39;s filter."))
        #expect(free.sheetHTML.contains("<dt>User id</dt>"), "the user is known all the same")
    }

    /// Once the app's raw events before an instant are pruned, a user's timeline ends with
    /// since when they are kept; a user first seen after it has no such note.
    @Test func aPrunedTimelineSaysSinceWhenEventsAreKept() async throws {
        _ = try await store.apps.update(app.id, acceptedEventAge: 86_400, rawRetention: .days(2))
        // The horizon: 2026-11-20T00:00Z, after ann's two events of 2026-11-19.
        _ = try await store.dataRetention.prune(now: try Date("2026-11-22T06:00:00Z", strategy: .iso8601))
        let ann = try await page(.user("ann"))
        #expect(eventNames(ann.sheetHTML).count == 5)
        #expect(ann.sheetHTML.contains("Events before 20 Nov 2026, 00:00:00 are no longer kept"))
        #expect(ann.sheetHTML.contains("are no longer kept"))
        let bob = try await page(.user("bob"))
        #expect(eventNames(bob.sheetHTML) == ["login"])
        #expect(!bob.sheetHTML.contains("no longer kept"))
    }

    /// A user the app does not have — never seen, another app's, or an id longer than any —
    /// is said so, with nothing of another app's user shown.
    @Test(arguments: ["nobody", "zed", String(repeating: "x", count: 300)])
    func anUnknownUserIsSaidSo(id: String) async throws {
        let page = try await page(.user(id))
        #expect(page.viewModel.userTimeline?.report == .unknownUser)
        #expect(page.sheetHTML.contains("No user <span class=\"user-id\">\(id)</span> in this app."))
        #expect(!page.sheetHTML.contains("First seen") && !page.sheetHTML.contains("error"))
    }

    /// The debug builds' page has its own users: a production user is unknown there.
    @Test func debugBuildsHaveTheirOwnUsers() async throws {
        let query = PageQuery(date: CalendarDay(Self.day)!, debug: true, sheet: .user("ann"))
        let page = DashboardPage(app: app, layout: .default, query: query, store: store)
        await page.loadSheetData()
        #expect(page.viewModel.userTimeline?.report == .unknownUser)
    }

    /// "Older events" reads the next page from the cursor, newest first with no event twice,
    /// up to the bound, which the sheet then names; a stale or forged cursor reads nothing.
    @Test func olderEventsPageUpToTheBound() async throws {
        let start = try Date("2026-11-18T00:00:00Z", strategy: .iso8601)
        let events = (0..<(LoadedTimeline.maximumEvents + 50)).map { index in
            Event(id: UUID(), name: "tick", timestamp: start.addingTimeInterval(Double(index) * 60), userID: "many", sessionID: "s")
        }
        for batch in stride(from: 0, to: events.count, by: 500) {
            try await store.events.insert(Array(events[batch..<min(batch + 500, events.count)]), app: app.id)
        }
        let page = try await page(.user("many"))
        func timeline() throws -> LoadedTimeline {
            guard case .read(let timeline)? = page.viewModel.userTimeline?.report else { throw TimelineNotRead() }
            return timeline
        }
        #expect(try timeline().events.count == LoadedTimeline.pageSize)
        let first = try #require(try timeline().next)
        #expect(values(of: "data-value", in: page.sheetHTML).contains(first.description), "the button carries the cursor")

        // A cursor the sheet does not show (a button since redrawn, a forged one) reads nothing.
        let stale = try #require(UserTimeline.Cursor("1.1"))
        try page.receive(BrowserEvent(section: nil, name: "older-events", value: stale.description))
        await page.readOlderEvents(before: stale)
        #expect(try timeline().events.count == LoadedTimeline.pageSize)
        #expect(try timeline().next == first)

        var reads = 0
        while let next = try timeline().next, try timeline().canReadOlder {
            await page.readOlderEvents(before: next)
            reads += 1
            #expect(reads <= LoadedTimeline.maximumEvents / LoadedTimeline.pageSize)
        }
        let read = try timeline()
        #expect(read.events.count == LoadedTimeline.maximumEvents)
        #expect(read.isAtBound)
        #expect(read.events.map(\.timestamp) == events.suffix(LoadedTimeline.maximumEvents).reversed().map(\.timestamp))
        #expect(Set(read.events.map(\.id)).count == read.events.count)
        _ = page.refreshSheet()
        #expect(page.sheetHTML.contains("Showing the newest 1000 events of this user"))
        #expect(!page.sheetHTML.contains(#"id="older-events""#))

        await page.readOlderEvents(before: read.next ?? first)  // at the bound: nothing more is read
        #expect(try timeline().events.count == LoadedTimeline.maximumEvents)
        for forged in ["", "abc", "1.2.3", "99999999999999999999.0"] {
            #expect(throws: BrowserEventError.self) { try page.receive(BrowserEvent(section: nil, name: "older-events", value: forged)) }
        }
    }

    /// What a query the page has left reads is dropped: a newer query's answer is not replaced.
    @Test func anOlderQuerysAnswerIsDropped() async throws {
        let page = try await page(.user("ann"))
        let stale = page.viewModel.query.value.with { $0.sheet = .user("bob") }
        #expect(await page.readTimeline(of: "bob", for: stale, force: true, from: store) == false)
        #expect(page.viewModel.userTimeline?.query.sheet == .user("ann"))
        #expect(await page.searchUsers("b", for: stale.with { $0.sheet = .users(prefix: "b") }, force: true, from: store) == false)
        #expect(page.viewModel.userSearch == nil)
    }

    /// Every text of a hostile user is escaped in the sheet: id, session, screen, properties.
    @Test func hostileTextIsEscaped() async throws {
        let page = try await page(.user(Self.hostile))
        let html = page.sheetHTML
        #expect(eventNames(html) == ["screen_view"])
        #expect(html.contains(HTMLText.escape(Self.hostile)))
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(html.contains(#"data-session="&quot;&gt;&lt;script&gt;x&lt;/script&gt;""#))
        #expect(!html.contains("<b>") && !html.contains("<img") && !html.contains("<script"))
        let ann = try await self.page(.user("ann"))
        #expect(ann.sheetHTML.contains("<li>note=&lt;script&gt;alert(1)&lt;/script&gt;</li>"))
    }

    // MARK: Links

    /// The live feed's user ids are links to their sheet, which the page's script opens live;
    /// the link is the address the sheet then has, for any id.
    @Test func liveFeedUserIdsLinkToTheirSheet() async throws {
        let query = PageQuery(
            date: CalendarDay(Self.day)!, timeZone: TimeZone(identifier: "UTC"), filter: try SegmentFilter(parsing: "platform==ios"))
        let page = DashboardPage(app: app, layout: .default, query: query, store: store)
        await page.refresh()
        let link = page.viewModel.userLink(Self.hostile)
        #expect(link == "?" + query.with { $0.sheet = .user(Self.hostile) }.queryString)
        #expect(link.hasPrefix("?date=2026-11-20&tz=UTC&filters=platform==ios&sheet=user&user="))
        let html = page.html
        #expect(
            html.contains(
                #"<a class="detail user-link" href="\#(HTMLText.escape(link))" data-event="sheet" data-value="user:\#(HTMLText.escape(Self.hostile))" title="\#(HTMLText.escape(Self.hostile))">"#
            ))
        #expect(html.contains(#"href="?date=2026-11-20&amp;tz=UTC&amp;filters=platform==ios&amp;sheet=user&amp;user=ann""#))
        #expect(!html.contains("<b>"))

        // The address reads back as the same sheet.
        var parameters: [String: String] = [:]
        for item in URLComponents(string: link)?.queryItems ?? [] { parameters[item.name] = item.value }
        #expect(try PageQuery(parameters, today: CalendarDay(Self.day)!).sheet == .user(Self.hostile))

        // A click opens it through the mediator, under the same address.
        let recording = Mediator.dashboard.recordCalls()
        defer { recording.dispose() }
        try page.receive(BrowserEvent(section: "live", name: "sheet", value: "user:\(Self.hostile)"))
        #expect(page.url == "/apps/\(app.id.rawValue)\(link)")
        #expect(recording.calls.contains { $0.target == "sheet" && $0.action == "user" })
        await page.loadSheetData()
        _ = page.refreshSheet()
        #expect(page.sheetHTML.contains(#"<span class="event-screen">&lt;img src=x onerror=alert(1)&gt;</span>"#))
    }

    /// The sheet's address holds the user, and reads back; overlong text is refused.
    @Test func theAddressNamesTheUserOrTheSearch() throws {
        let today = CalendarDay(Self.day)!
        #expect(try PageQuery(["sheet": "user", "user": "ann"], today: today).sheet == .user("ann"))
        #expect(try PageQuery(["sheet": "user"], today: today).sheet == .users(prefix: ""), "no id: the search")
        #expect(try PageQuery(["sheet": "users", "prefix": "an"], today: today).sheet == .users(prefix: "an"))
        #expect(PageQuery(date: today, sheet: .users(prefix: "a&b")).queryString == "date=2026-11-20&sheet=users&prefix=a%26b")
        let long = String(repeating: "a", count: PageQuery.maximumUserText + 1)
        #expect(throws: PageQueryError.badParameter("user", "a user id")) { try PageQuery(["sheet": "user", "user": long], today: today) }
        #expect(throws: PageQueryError.self) { try PageQuery(["sheet": "users", "prefix": String(repeating: "a", count: 10_000)], today: today) }
        #expect(PageQuery.Sheet(name: "user:") == nil)
        #expect(PageQuery.Sheet(name: "user:\(Self.hostile)") == .user(Self.hostile))
        #expect(PageQuery.Sheet(name: "users:an") == .users(prefix: "an"))
    }

    // MARK: The search

    /// Typing a prefix lists the app's users whose id starts with it, each linked to their
    /// sheet; the address keeps the prefix; another app's users are not found.
    @Test func theSearchListsUsersByPrefix() async throws {
        let page = try await page(.users(prefix: ""))
        let everyone = values(of: "data-value", in: page.sheetHTML).filter { $0.hasPrefix("user:") }
        #expect(everyone == ["user:" + HTMLText.escape(Self.hostile), "user:ann", "user:bob"], "code point order")
        #expect(page.sheetHTML.contains(#"<input id="user-prefix" name="prefix" type="search" value="""#))

        var messages: [PageMessage] = []
        page.outbox = { messages.append($0) }
        try page.receive(BrowserEvent(section: nil, name: "user-search", value: "date=2026-11-20&sheet=users&prefix=a"))
        #expect(page.viewModel.query.value.sheet == .users(prefix: "a"))
        #expect(messages.last?.url == "/apps/\(app.id.rawValue)?date=2026-11-20&sheet=users&prefix=a")
        #expect(page.sheetHTML.contains(#"aria-busy="true""#), "the last answer shows, busy, until this one's")
        await page.loadSheetData()
        _ = page.refreshSheet()
        #expect(values(of: "data-value", in: page.sheetHTML).filter { $0.hasPrefix("user:") } == ["user:ann"])
        #expect(page.sheetHTML.contains(#"href="?date=2026-11-20&amp;sheet=user&amp;user=ann""#))
        #expect(page.sheetHTML.contains("first seen 19 Nov 2026, 09:00:00"))
        #expect(!page.sheetHTML.contains("aria-busy"))

        let other = try await self.page(.users(prefix: "z"))
        #expect(other.sheetHTML.contains("No user id starts with “z”."))
        let hostile = try await self.page(.users(prefix: "<b>"))
        #expect(values(of: "data-value", in: hostile.sheetHTML).filter { $0.hasPrefix("user:") } == ["user:" + HTMLText.escape(Self.hostile)])
        #expect(hostile.sheetHTML.contains(#"value="&lt;b&gt;""#) && !hostile.sheetHTML.contains("<b>"))
    }

    /// At most 20 users are listed, with a hint to type more; a prefix longer than any id finds
    /// nobody, and one past the page's limit is refused.
    @Test func theSearchIsBounded() async throws {
        try await store.events.insert((0..<25).map { Self.event("login", "u\($0 < 10 ? "0" : "")\($0)", "2026-11-20T12:00:00Z") }, app: app.id)
        let page = try await page(.users(prefix: "u"))
        let listed = values(of: "data-value", in: page.sheetHTML).filter { $0.hasPrefix("user:") }
        #expect(listed == (0..<UserSearchReport.resultLimit).map { "user:u\($0 < 10 ? "0" : "")\($0)" })
        #expect(page.sheetHTML.contains("The first 20 ids in order"))

        let long = try await self.page(.users(prefix: String(repeating: "u", count: 300)))
        #expect(long.viewModel.userSearch?.report == .found([]))
        #expect(long.sheetHTML.contains("No user id starts with"))
        #expect(throws: BrowserEventError.self) {
            try page.receive(BrowserEvent(section: nil, name: "user-search", value: "prefix=" + String(repeating: "u", count: 10_000)))
        }
        #expect(page.viewModel.query.value.sheet == .users(prefix: "u"))
    }

    /// The timeline's link back goes to the search on the prefix last searched.
    @Test func theTimelineLinksBackToTheSearch() async throws {
        let page = try await page(.users(prefix: "an"))
        try page.receive(BrowserEvent(section: nil, name: "sheet", value: "user:ann"))
        #expect(page.sheetHTML.contains(#"data-event="sheet" data-value="users:an">← Search users</a>"#))
        #expect(page.sheetHTML.contains("Reading the user's events…"))
    }
}

/// The test's page has no timeline read.
private struct TimelineNotRead: Error {}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import NIOCore
import TallyStore
import Testing

@testable import TallyDashboard

/// Who may do what with an app: for each role (and none) and each dashboard route of
/// `RouteAccessTests`' table behind a session, and each event the page's socket takes, the
/// answer. A user without a role learns nothing: every answer about the app is the answer
/// about an app that does not exist. The matrix is printed.
@Suite(.timeLimit(.minutes(5))) struct RoleMatrixTests {
    /// A user of the fixture's app with `role`, or with none.
    struct Member: Sendable {
        let name: String
        let role: AppRole?
        var label: String { role?.rawValue ?? "none" }
    }

    static let members = [
        Member(name: "nora", role: nil), Member(name: "vera", role: .viewer), Member(name: "ed", role: .editor), Member(name: "ana", role: .owner),
    ]
    /// An app id no app has.
    static let missing = 999

    /// A fixture whose user `ana` owns the app, with the other ``members`` and their roles, and a
    /// saved segment `old-ROLE` per role for its delete.
    static func fixture() async throws -> DashboardFixture {
        var limits = SocketLimits()
        limits.messages.burst = 10_000
        let fixture = try await DashboardFixture(socketLimits: limits)
        let access = DashboardAccess(store: fixture.store, passwordCost: 4)
        for member in members where member.name != "ana" {
            let user = try await access.createUser(name: member.name, password: DashboardFixture.password)
            if let role = member.role { try await fixture.store.members.setRole(role, of: user.id, in: fixture.app.app.id) }
        }
        for member in members {
            try await fixture.store.segments.save(
                app: fixture.app.app.id, name: "old-\(member.label)", filter: SegmentFilter([.is("platform", "ios")]))
            try await fixture.store.alerts.save(
                try AlertRule(
                    name: "old-\(member.label)", metric: .headline(.dau), condition: .above(1), webhook: "https://example.com/", secret: "s"),
                app: fixture.app.app.id)
            // Ids 1 to 4 in a fresh database, in the order of `members`.
            try await fixture.store.annotations.add(
                app: fixture.app.app.id, time: Date(timeIntervalSince1970: 1_795_000_000), text: "old-\(member.label)")
        }
        return fixture
    }

    @Test func everyRoleGetsWhatItMayAndNoMoreOverHTTPAndTheSocket() async throws {
        let fixture = try await Self.fixture()
        let app = fixture.app.app.id
        // Every route behind a session, and the page with its members sheet open.
        let routes =
            RouteAccessTests.access.filter { $0.value == .session }.keys.sorted() + ["GET /apps/{id}?sheet=members", "GET /apps/{id}?sheet=alerts"]
        var rows: [(String, [String])] = routes.map { ($0, []) } + [("WS /apps/{id}/live", [])] + Self.probes.map { ("event \($0)", []) }

        let columns = try await fixture.test(.live) { client in
            var cells: [[String]] = []
            for member in Self.members {
                let cookie = try await client.signIn(member.name)
                var column: [String] = []
                for route in routes {
                    column.append(try await Self.answer(route, member: member, app: app, cookie: cookie, client: client))
                }
                column.append(contentsOf: try await Self.socket(member: member, fixture: fixture, cookie: cookie, client: client))
                cells.append(column)
            }
            return cells
        }
        for column in columns {
            for (row, cell) in column.enumerated() { rows[row].1.append(cell) }
        }

        // What the socket's segment events did: only an editor's and an owner's changed anything.
        let names = Set(try await fixture.store.segments.saved(app: app).map(\.name))
        #expect(names == ["old-none", "old-viewer", "new-editor", "new-owner"])
        // Only the owner's deletion of ann's data, recorded under the owner's name.
        #expect(try await fixture.store.users.search(app: app, prefix: "").map(\.id) == ["bob"])
        #expect(try await fixture.store.userData.deletions(app: app).map { "\($0.deletedBy) \($0.events)" } == ["ana 1"])
        // Only an editor's and an owner's alert and annotation events, which the page stores in
        // tasks of its own (the owner's may still run as the socket closes).
        let expected: Set<String> = ["old-none", "old-viewer", "new-editor", "new-owner"]
        var (rules, notes): (Set<String>, Set<String>) = ([], [])
        for _ in 0..<1_000 where rules != expected || notes != expected {
            rules = Set(try await fixture.store.alerts.rules(app: app).map(\.name))
            notes = Set(try await fixture.store.annotations.list(app: app, from: .distantPast, to: .distantFuture).map(\.text))
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(rules == expected)
        #expect(notes == expected)
        // And only the owner's member events: nora added, vera removed.
        #expect(try await fixture.store.members.list(app: app).map { "\($0.user.name) \($0.role)" } == ["ana owner", "ed editor", "nora viewer"])

        let header = ["route or event"] + Self.members.map { "\($0.label) (\($0.name))" }
        let widths = header.indices.map { column in ([header] + rows.map { [$0.0] + $0.1 }).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            "| " + zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: " | ") + " |"
        }
        print(
            ([line(header), line(widths.map { String(repeating: "-", count: $0) })] + rows.map { line([$0.0] + $0.1) }).joined(separator: "\n"))
    }

    /// The answer to `route` for `member`, checked against what the role may: a user with no
    /// role gets, byte for byte, the answer about an app that does not exist.
    static func answer(
        _ route: String, member: Member, app: AppID, cookie: String, client: some TestClientProtocol
    ) async throws -> String {
        func ask(_ id: Int64) async throws -> TestResponse {
            let method = String(route.prefix { $0 != " " })
            let path = String(route.dropFirst(method.count + 1)).replacingOccurrences(of: "{id}", with: "\(id)")
                .replacingOccurrences(of: "{file}", with: "dau.csv").replacingOccurrences(of: "{user}", with: "ann")
            if method == "POST" {
                // The page's CSRF token, which the sign-in's cookie carries.
                let token = cookie.split(separator: ";")[0].split(separator: "=", maxSplits: 1)[1]
                return try await client.execute(
                    uri: path, method: .post, headers: [.cookie: cookie, .contentType: "application/x-www-form-urlencoded"],
                    body: ByteBuffer(string: "csrf=\(token)"))
            }
            let query = "date=\(DashboardFixture.day)&filters=platform==ios"
            return try await client.execute(uri: path + (path.contains("?") ? "&" : "?") + query, method: .get, headers: [.cookie: cookie])
        }
        let answer = try await ask(app.rawValue)
        let said = "\(route) for \(member.label)"
        if route == "GET /" {
            if member.role == nil {
                #expect(answer.status == .ok && answer.text.contains("No apps yet"), "\(said)")
                #expect(!answer.text.contains("/apps/\(app.rawValue)") && !answer.text.contains("Bills"), "\(said)")
                return "200, no apps"
            }
            #expect(answer.status == .found && answer.headers[.location] == "/apps/\(app.rawValue)", "\(said)")
            return "302 to the app"
        }
        guard member.role != nil else {
            let missing = try await ask(Int64(Self.missing))
            #expect(answer.status == .notFound, "\(said)")
            #expect(answer.status == missing.status && answer.text == missing.text, "\(said): not the answer of a missing app")
            #expect(answer.headers[.contentType] == missing.headers[.contentType], "\(said)")
            #expect(!answer.text.contains("Bills"), "\(said)")
            return "404 = missing app"
        }
        if route.contains("/users/{user}/") {
            guard member.role == .owner else {
                #expect(answer.status == .forbidden, "\(said)")
                return "403"
            }
            if route.hasPrefix("POST ") {
                #expect(answer.status == .seeOther && answer.headers[.location] == "/apps/\(app.rawValue)", "\(said)")
                return "303, deleted"
            }
            #expect(answer.status == .ok && answer.text.contains(#""record":"user","user_id":"ann""#), "\(said)")
            return "200, NDJSON"
        }
        #expect(answer.status == .ok, "\(said)")
        // Only an owner sees the members, and the button that opens them.
        let isOwner = member.role == .owner
        if !route.contains("/metrics/") {
            #expect(answer.text.contains("id=\"members-button\"") == isOwner, "\(said)")
            // Only an editor or an owner sees the form that saves the filter, and the segments' delete buttons.
            let canEdit = member.role.map { $0 >= .editor } ?? false
            #expect(answer.text.contains("id=\"segment-save\"") == canEdit && answer.text.contains("segment-delete") == canEdit, "\(said)")
        }
        if route.hasSuffix("sheet=alerts") {
            let canEdit = member.role.map { $0 >= .editor } ?? false
            #expect(answer.text.contains("old-none") && answer.text.contains("id=\"alert-add\"") == canEdit, "\(said)")
            #expect(answer.text.contains("alert-delete") == canEdit, "\(said)")
            return canEdit ? "200, alerts and forms" : "200, alerts"
        }
        if route.hasSuffix("sheet=members") {
            #expect(answer.text.contains("class=\"member-name\">ed<") == isOwner, "\(said)")
            return isOwner ? "200, members" : "200, no members"
        }
        return "200"
    }

    /// The socket's column for `member`: whether it opens (as for a missing app when it does
    /// not), then each event's outcome: `refused` when the role forbids it, else `allowed`.
    static func socket(member: Member, fixture: DashboardFixture, cookie: String, client: some TestClientProtocol) async throws -> [String] {
        let headers: HTTPFields = [.cookie: cookie, .origin: "http://localhost:\(client.port ?? 0)"]
        let query = "date=\(DashboardFixture.day)&filters=platform==ios"
        guard let role = member.role else {
            for id in [fixture.app.app.id.rawValue, Int64(Self.missing)] {
                await #expect(throws: (any Error).self, "the socket of app \(id) opened for a user without a role") {
                    try await client.ws("/apps/\(id)/live?\(query)", configuration: .init(additionalHeaders: headers)) { _, _, _ in }
                }
            }
            return ["404 = missing app"] + Self.probes.map { _ in "refused (no socket)" }
        }
        let outcomes = Outcomes()
        try await client.ws(
            "/apps/\(fixture.app.app.id.rawValue)/live?\(query)", configuration: .init(maxFrameSize: 1 << 22, additionalHeaders: headers)
        ) { inbound, outbound, _ in
            var reader = LiveSocketTests.Reader(iterator: inbound.messages(maxSize: 1 << 22).makeAsyncIterator())
            _ = try await reader.next()
            for (index, probe) in Self.eventOrder.enumerated() {
                let name = String(probe.prefix { $0 != " " })
                let (section, value) = Self.sample(probe, role: role)
                var fields = ["event": name]
                fields["section"] = section
                fields["value"] = value
                let event = try JSONSerialization.data(withJSONObject: fields)
                try await outbound.write(.text(String(decoding: event, as: UTF8.self)))
                // An unknown event after it: its error marks the end of the event's answers.
                try await outbound.write(.text(#"{"event": "end-\#(index)"}"#))
                var refused = false
                while true {
                    let message = try await reader.next()
                    if message.error == "unknown event \"end-\(index)\"" { break }
                    if message.error == BrowserEventError.notAllowed(probe, role: role).description { refused = true }
                }
                await outcomes.set(probe, refused ? "refused" : "allowed")
                #expect(refused == (role < Self.required(probe)), "\(probe) for \(role)")
            }
            try await outbound.close(.normalClosure, reason: nil)
        }
        let found = await outcomes.values
        return ["opens"] + Self.probes.map { found[$0] ?? "not sent" }
    }

    /// Every event the page takes, and the `sheet` event that opens the members sheet.
    static let probes = BrowserEvent.names + ["sheet members"]

    /// The events in the order sent: the segment events first, while the page has its filter.
    static let eventOrder = ["save-segment", "delete-segment"] + probes.filter { !["save-segment", "delete-segment"].contains($0) }

    /// The least role that may send `probe`.
    static func required(_ probe: String) -> AppRole {
        switch probe {
        case "save-segment", "delete-segment", "add-alert", "delete-alert", "add-annotation", "delete-annotation": .editor
        case "add-member", "remove-member", "sheet members": .owner
        default: .viewer
        }
    }

    /// A section and value the event of `name` (a ``probes`` entry) takes, as the page's script sends them.
    static func sample(_ name: String, role: AppRole) -> (section: String?, value: String?) {
        switch name {
        case "move": ("ads", "0")
        case "hide", "show": ("ads", nil)
        case "expand": ("ads", "on")
        case "search": (nil, "bill")
        case "sheet": (nil, "date")
        case "range": (nil, "7d")
        case "custom": (nil, "from=2026-11-20&date=2026-11-20")
        case "compare": (nil, "on")
        case "filters": (nil, "platform==ios")
        case "remove-filter": (nil, "0")
        case "add-filter": (nil, "property=platform&operator=is&value=ios")
        case "save-segment": (nil, "name=new-\(role.rawValue)")
        case "delete-segment": (nil, "old-\(role.rawValue)")
        case "filter-property": (nil, "platform")
        case "funnel": (nil, "step=bill_created&step=bill_created&window=86400")
        case "user-search": (nil, "prefix=a")
        case "paths": (nil, "start=Home&kind=screen&direction=after&depth=2")
        case "navigate": (nil, "date=2026-11-20")
        case "add-member": (nil, "name=nora&role=viewer")
        case "remove-member": (nil, "vera")
        case "add-alert": (nil, "name=new-\(role.rawValue)&metric=dau&condition=above+1&webhook=https%3A%2F%2Fexample.com%2Fhook")
        case "delete-alert": (nil, "old-\(role.rawValue)")
        case "add-annotation": (nil, "day=2026-11-20&text=new-\(role.rawValue)")
        case "delete-annotation": (nil, String([AppRole.viewer, .editor, .owner].firstIndex(of: role)! + 2))
        case "sheet members": (nil, "members")
        default: (nil, nil)
        }
    }

    /// The outcome of each event sent, gathered from the socket's task.
    actor Outcomes {
        var values: [String: String] = [:]
        func set(_ name: String, _ outcome: String) { values[name] = outcome }
    }

    /// A role revoked while the socket is open closes it at its next message; a role lowered
    /// refuses what the new role may not do.
    @Test func aRevokedOrLoweredRoleTakesEffectOnTheOpenSocket() async throws {
        let fixture = try await Self.fixture()
        let app = fixture.app.app.id
        let ed = try #require(try await fixture.store.accounts.account(named: "ed")).user.id
        try await fixture.test(.live) { client in
            let cookie = try await client.signIn("ed")
            let headers: HTTPFields = [.cookie: cookie, .origin: "http://localhost:\(client.port ?? 0)"]
            let path = "/apps/\(app.rawValue)/live?date=\(DashboardFixture.day)&filters=platform==ios"
            try await client.ws(path, configuration: .init(maxFrameSize: 1 << 22, additionalHeaders: headers)) { inbound, outbound, _ in
                var reader = LiveSocketTests.Reader(iterator: inbound.messages(maxSize: 1 << 22).makeAsyncIterator())
                _ = try await reader.next()
                try await fixture.store.members.setRole(.viewer, of: ed, in: app)
                try await outbound.write(.text(#"{"event": "save-segment", "value": "name=lowered"}"#))
                #expect(try await reader.next().error == BrowserEventError.notAllowed("save-segment", role: .viewer).description)
                try await fixture.store.members.remove(ed, from: app)
                try? await outbound.write(.text(#"{"event": "sheet", "value": "date"}"#))
                // The server closes the socket: the messages end (the suite's time limit fails a wait in vain).
                while (try? await reader.iterator.next()) != nil {}
            }
        }
        #expect(try await fixture.store.segments.saved(app: app).map(\.name).sorted() == ["old-editor", "old-none", "old-owner", "old-viewer"])
    }
}

extension RoleMatrixTests {
    /// A role revoked while the socket is open and silent closes it within a moment: the
    /// page's live updates stop at once, not at the user's next message.
    @Test func aRevokedRoleClosesASilentSocket() async throws {
        let fixture = try await Self.fixture()
        let app = fixture.app.app.id
        let vera = try #require(try await fixture.store.accounts.account(named: "vera")).user.id
        try await fixture.test(.live) { client in
            let cookie = try await client.signIn("vera")
            let headers: HTTPFields = [.cookie: cookie, .origin: "http://localhost:\(client.port ?? 0)"]
            let path = "/apps/\(app.rawValue)/live?date=\(DashboardFixture.day)"
            try await client.ws(path, configuration: .init(maxFrameSize: 1 << 22, additionalHeaders: headers)) { inbound, _, _ in
                var reader = LiveSocketTests.Reader(iterator: inbound.messages(maxSize: 1 << 22).makeAsyncIterator())
                _ = try await reader.next()
                try await fixture.store.members.remove(vera, from: app)
                // The server closes the socket: the messages end (the suite's time limit fails a wait in vain).
                while (try? await reader.iterator.next()) != nil {}
            }
        }
        #expect(await MainActor.run { fixture.server.live.openPages } == 0)
    }
}

extension RoleMatrixTests {
    /// The header's app menu links the apps the user has a role in, and no other: a user
    /// with one app has no menu, and never sees the name of an app that is not theirs.
    @Test func theAppMenuListsOnlyTheUsersApps() async throws {
        let fixture = try await Self.fixture()
        let bills = fixture.app.app.id
        let shop = try await fixture.store.apps.create(name: "Shop", timeZone: "UTC", acceptedEventAge: 86_400).app.id
        let secret = try await fixture.store.apps.create(name: "Secret", timeZone: "UTC", acceptedEventAge: 86_400).app.id
        let ana = try #require(try await fixture.store.accounts.account(named: "ana")).user.id
        try await fixture.store.members.setRole(.viewer, of: ana, in: shop)
        let (anas, veras) = try await fixture.test { client in
            func page(_ user: String) async throws -> String {
                let cookie = try await client.signIn(user)
                return try await client.execute(uri: "/apps/\(bills.rawValue)", method: .get, headers: [.cookie: cookie]).text
            }
            return (try await page("ana"), try await page("vera"))
        }
        #expect(anas.contains(#"<a href="/apps/\#(bills.rawValue)" aria-current="page">Bills &lt;&amp; Co&gt;</a>"#))
        #expect(anas.contains(#"<a href="/apps/\#(shop.rawValue)">Shop</a>"#))
        #expect(!anas.contains("Secret") && !anas.contains("/apps/\(secret.rawValue)\""))
        #expect(!veras.contains(#"id="apps""#) && !veras.contains("Shop") && !veras.contains("Secret"))
    }
}

/// The matrix's list of events is the page's: each name is one the page takes.
@Suite struct BrowserEventNamesTests {
    @MainActor @Test func everyNameListedIsAnEventThePageTakes() {
        let page = DashboardPage(date: "2026-11-20")
        for name in BrowserEvent.names {
            do {
                try page.receive(BrowserEvent(section: nil, name: name))
            } catch {
                #expect(error != .unknownEvent(name), "\(name)")
            }
        }
        #expect(throws: BrowserEventError.unknownEvent("explode")) { try page.receive(BrowserEvent(section: nil, name: "explode")) }
    }
}

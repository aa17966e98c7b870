import Componentry
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import NIOCore
import Testing

@testable import TallyDashboard

/// The largest frame the tests' socket clients accept. A page's resync is one text frame with
/// the HTML of all its sections (16.6 KiB for the default layout), which browsers take at
/// any size; the test client's default limit is 16 KiB.
private let maxFrameSize = 1 << 22

/// The page's WebSocket, driven as the page script drives it: the resync, browser events,
/// hostile messages, live updates, and who may open it.
@Suite(.timeLimit(.minutes(3))) struct LiveSocketTests {
    /// A server message, as the script reads it.
    struct Received: Decodable {
        struct Patch: Decodable {
            var op: String
            var id: String?
            var html: String?
        }

        var patches: [Patch]
        var url: String?
        var refreshing: Bool?
        var error: String?
    }

    /// The messages of one socket, read one at a time (the suite's time limit ends a test
    /// that waits for one in vain).
    struct Reader {
        var iterator: WebSocketInboundMessageStream.AsyncIterator

        mutating func next() async throws -> Received {
            guard case .text(let text)? = try await iterator.next() else { throw ReaderError.noMessage }
            return try JSONDecoder().decode(Received.self, from: Data(text.utf8))
        }

        /// Reads messages until one satisfies `condition`, at most 20.
        mutating func first(where condition: (Received) -> Bool) async throws -> Received {
            for _ in 0..<20 {
                let message = try await next()
                if condition(message) { return message }
            }
            throw ReaderError.noMessage
        }
    }

    enum ReaderError: Error { case noMessage }

    func headers(_ cookie: String, port: Int?, origin: String? = nil) -> HTTPFields {
        [.cookie: cookie, .origin: origin ?? "http://localhost:\(port ?? 0)"]
    }

    /// Signs in, opens the socket of the fixture's app for the page `query`, and runs `body`
    /// with its messages and its writer.
    func withSocket(
        _ fixture: DashboardFixture, _ client: some TestClientProtocol, query: String = "date=\(DashboardFixture.day)",
        _ body: @escaping @Sendable (inout Reader, WebSocketOutboundWriter) async throws -> Void
    ) async throws {
        let cookie = try await client.signIn()
        let path = "/apps/\(fixture.app.app.id.rawValue)/live?\(query)"
        try await client.ws(path, configuration: .init(maxFrameSize: maxFrameSize, additionalHeaders: headers(cookie, port: client.port))) {
            inbound, outbound, _ in
            var reader = Reader(iterator: inbound.messages(maxSize: 1 << 22).makeAsyncIterator())
            try await body(&reader, outbound)
            try await outbound.close(.normalClosure, reason: nil)
        }
    }

    @Test func theSocketResyncsThenTakesEventsAndSurvivesHostileMessages() async throws {
        let fixture = try await DashboardFixture()
        try await fixture.test(.live) { client in
            try await withSocket(fixture, client) { reader, outbound in
                let resync = try await reader.next()
                #expect(resync.patches.map(\.id) == ["sections", "sheet-slot", "date-button", "debug-button", "filter-bar"])
                #expect(resync.patches.first?.html?.contains(#"data-metric="dau">2<"#) == true)
                #expect(resync.url == "/apps/\(fixture.app.app.id.rawValue)?date=\(DashboardFixture.day)")

                try await outbound.write(.text(#"{"event": "move", "section": "ads", "value": "0"}"#))
                #expect(try await reader.next().patches.map(\.op) == ["move"])

                let hostile: [WebSocketOutboundWriter.OutboundFrame] = [
                    .text("not json"), .text(#"{"event": "explode"}"#), .text(#"{"event": "move", "section": "ads", "value": "1e99"}"#),
                    .text(#"{"event": 5}"#), .text(String(repeating: "[", count: 10_000)), .text(#"{"event": "sheet", "value": "metric:"}"#),
                    .text(#"{"event": "custom", "value": "from=2026-11-20&date=1999-01-01"}"#), .binary(ByteBuffer(bytes: [0xff, 0xfe])),
                    .text(#"{"event": "hide", "section": "<img src=x onerror=alert(1)>"}"#),
                ]
                for frame in hostile {
                    try await outbound.write(frame)
                    let answer = try await reader.next()
                    #expect(answer.error != nil || answer.patches.isEmpty, "\(frame)")
                }
                // The page keeps working.
                try await outbound.write(.text(#"{"event": "sheet", "value": "date"}"#))
                let sheet = try await reader.next()
                #expect(sheet.patches.contains { $0.id == "sheet-slot" && $0.html?.contains(#"data-sheet="date""#) == true })
                #expect(sheet.url?.hasSuffix("&sheet=date") == true)
            }
        }
    }

    /// A date chosen in the sheet is read from the store and shown without a page load.
    @Test func aPresetRangeShowsItsNumbers() async throws {
        let fixture = try await DashboardFixture()
        try await fixture.test(.live) { client in
            try await withSocket(fixture, client, query: "date=2026-11-21") { reader, outbound in
                let resync = try await reader.next()
                #expect(resync.patches.first?.html?.contains(#"data-metric="dau">0<"#) == true)
                try await outbound.write(.text(#"{"event": "custom", "value": "from=2026-11-20&date=2026-11-20"}"#))
                let moved = try await reader.next()
                #expect(moved.url == "/apps/\(fixture.app.app.id.rawValue)?date=2026-11-20")
                let numbers = try await reader.first { $0.patches.contains { $0.html?.contains(#"data-metric="dau">2<"#) == true } }
                #expect(numbers.error == nil)
            }
        }
    }

    /// An event ingested over HTTP reaches the open page, with no page load and no polling.
    @Test func anIngestedEventReachesAnOpenPage() async throws {
        let fixture = try await DashboardFixture()
        try await fixture.test(.live) { client in
            try await withSocket(fixture, client) { reader, outbound in
                _ = try await reader.next()
                // sent_at is now: the server corrects timestamps only for a device clock that is off.
                let now = Date().formatted(.iso8601)
                let body =
                    #"{"sent_at": "\#(now)", "events": [{"id": "\#(UUID())", "name": "bill_created", "timestamp": "2026-11-20T13:00:00Z", "user_id": "cy"}]}"#
                let ingest = try await client.execute(
                    uri: "/v1/events", method: .post,
                    headers: [.contentType: "application/json", HTTPField.Name("X-App-Key")!: fixture.app.ingestKey],
                    body: ByteBuffer(string: body))
                #expect(ingest.status == .ok)
                let update = try await reader.first { $0.patches.contains { $0.html?.contains(#"data-metric="dau">3<"#) == true } }
                #expect(update.patches.contains { $0.html?.contains(#"data-metric="events">3<"#) == true })
            }
        }
    }

    @Test func aStrangerOrAnotherSiteCannotOpenTheSocket() async throws {
        let fixture = try await DashboardFixture()
        try await fixture.test(.live) { client in
            let cookie = try await client.signIn()
            let path = "/apps/\(fixture.app.app.id.rawValue)/live"
            let refusals: [HTTPFields] = [
                headers(cookie, port: client.port, origin: "http://evil.example"),
                [.origin: "http://localhost:\(client.port ?? 0)"],
                [.cookie: cookie],
                headers("\(DashboardFixture.cookies.session)=forged", port: client.port),
            ]
            for fields in refusals {
                await #expect(throws: (any Error).self, "\(fields)") {
                    try await client.ws(path, configuration: .init(maxFrameSize: maxFrameSize, additionalHeaders: fields)) { _, _, _ in }
                }
            }
        }
    }

    /// How a session ends: signed out through the form, or deleted any other way (by another
    /// collector sharing the database, say), with the page silent or sending a move at once.
    enum SessionEnd: String, CaseIterable, Sendable {
        case signOut, deletion, deletionThenMove
    }

    /// A socket outlives its session by a moment only: the server closes it (the sign-out at
    /// once, a deletion at the next check of the sessions or the next message), and a move
    /// sent after the session ended is not saved.
    @Test(arguments: SessionEnd.allCases)
    func aSocketClosesWhenItsSessionEnds(how: SessionEnd) async throws {
        let fixture = try await DashboardFixture()
        try await fixture.test(.live) { client in
            let cookie = try await client.signIn()
            let token = try #require(cookie.firstMatch(of: /tally_session=([^;]+)/).map { String($0.1) })
            let path = "/apps/\(fixture.app.app.id.rawValue)/live?date=\(DashboardFixture.day)"
            try await client.ws(path, configuration: .init(maxFrameSize: maxFrameSize, additionalHeaders: headers(cookie, port: client.port))) {
                inbound, outbound, _ in
                var reader = Reader(iterator: inbound.messages(maxSize: 1 << 22).makeAsyncIterator())
                _ = try await reader.next()
                switch how {
                case .signOut:
                    let csrf = try #require(cookie.firstMatch(of: /tally_csrf=([^;]+)/)?.1)
                    let out = try await client.execute(
                        uri: "/logout", method: .post, headers: [.contentType: "application/x-www-form-urlencoded", .cookie: cookie],
                        body: ByteBuffer(string: "csrf=\(csrf)"))
                    #expect(out.status == .found)
                case .deletion, .deletionThenMove:
                    try await fixture.store.accounts.deleteSession(tokenHash: DashboardAccess.hash(token))
                }
                if how != .deletion { try? await outbound.write(.text(#"{"event": "move", "section": "health", "value": "0"}"#)) }
                // The server closes the socket: the messages end (the suite's time limit fails a wait in vain).
                while (try? await reader.iterator.next()) != nil {}
            }
            let user = try #require(try await fixture.store.accounts.account(named: "ana")).user.id
            #expect(try await fixture.store.accounts.sectionLayout(user: user, app: fixture.app.app.id) == nil, "the move was not saved")
        }
    }

    /// A user's messages past their budget are refused with the wait, and the page goes on;
    /// so are sockets opened past theirs.
    @Test func messagesAndSocketsPastTheUsersBudgetAreRefused() async throws {
        var limits = SocketLimits()
        limits.messages = .init(eventsPerSecond: 0.001, burst: 3)
        limits.opened = .init(eventsPerSecond: 0.001, burst: 2)
        let fixture = try await DashboardFixture(socketLimits: limits)
        try await fixture.test(.live) { client in
            try await withSocket(fixture, client) { reader, outbound in
                _ = try await reader.next()
                for _ in 0..<3 {
                    try await outbound.write(.text(#"{"event": "explode"}"#))
                    #expect(try await reader.next().error?.contains("unknown event") == true)
                }
                try await outbound.write(.text(#"{"event": "explode"}"#))
                #expect(try await reader.next().error?.hasPrefix("too many messages") == true)
            }
            try await withSocket(fixture, client) { reader, _ in _ = try await reader.next() }
            await #expect(throws: (any Error).self) {
                try await withSocket(fixture, client) { reader, _ in _ = try await reader.next() }
            }
        }
    }

    /// The order a user chooses is saved for them: the next page shows it.
    @Test func aReorderIsKeptForTheUser() async throws {
        let fixture = try await DashboardFixture()
        try await fixture.test(.live) { client in
            try await withSocket(fixture, client) { reader, outbound in
                _ = try await reader.next()
                try await outbound.write(.text(#"{"event": "move", "section": "health", "value": "0"}"#))
                _ = try await reader.next()
                try await outbound.write(.text(#"{"event": "hide", "section": "ads", "value": "on"}"#))
                _ = try await reader.next()
            }
            let cookie = try await client.signIn()
            var ids: [Substring] = []
            // The saves finish after the socket's replies: wait for the last one.
            for _ in 0..<100 where ids.first != "health" || ids.contains("ads") {
                let page = try await client.execute(uri: fixture.pagePath, method: .get, headers: [.cookie: cookie])
                ids = page.text.matches(of: /data-section="([^"]+)"/).map(\.1)
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(ids.first == "health")
            #expect(!ids.contains("ads"))
        }
    }
}

/// Many tabs opening, sending and closing at once while events arrive: every page is freed
/// when its socket closes, and nothing is left registered.
///
/// Its hundreds of round trips queue behind every other test on the run's two cores (a
/// minute or more, though alone it takes under a second), so the ingest has a client of its
/// own that waits up to two minutes for an answer, where the live test client gives up
/// after 20 s.
@Suite(.timeLimit(.minutes(10))) struct LiveSocketStressTests {
    @Test func tabsOpenAndCloseConcurrentlyUnderIngest() async throws {
        // One user's 24 tabs at once, with 6 messages each: beyond a person's budget.
        var limits = SocketLimits()
        limits.messages.burst = 1_000
        let fixture = try await DashboardFixture(socketLimits: limits)
        try await fixture.test(.live) { client in
            let cookie = try await client.signIn()
            let port = try #require(client.port)
            let headers: HTTPFields = [.cookie: cookie, .origin: "http://localhost:\(port)"]
            let path = "/apps/\(fixture.app.app.id.rawValue)/live?date=\(DashboardFixture.day)"
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    let ingest = TestClient(host: "localhost", port: port, configuration: .init(timeout: .seconds(120)))
                    ingest.connect()
                    do {
                        for round in 0..<20 {
                            let now = Date().formatted(.iso8601)
                            let body =
                                #"{"sent_at": "\#(now)", "events": [{"id": "\#(UUID())", "name": "bill_created", "timestamp": "2026-11-20T13:00:00Z", "user_id": "u\#(round)"}]}"#
                            let response = try await ingest.execute(
                                TestClient.Request(
                                    "/v1/events", method: .post, authority: "localhost",
                                    headers: [.contentType: "application/json", HTTPField.Name("X-App-Key")!: fixture.app.ingestKey],
                                    body: ByteBuffer(string: body)))
                            #expect(response.status == .ok)
                            try await Task.sleep(for: .milliseconds(10))
                        }
                    } catch {
                        try? await ingest.shutdown()
                        throw error
                    }
                    try await ingest.shutdown()
                }
                for tab in 0..<24 {
                    group.addTask {
                        try await client.ws(path, configuration: .init(maxFrameSize: maxFrameSize, additionalHeaders: headers)) {
                            inbound, outbound, _ in
                            var messages = inbound.messages(maxSize: 1 << 22).makeAsyncIterator()
                            _ = try await messages.next()
                            // A move to where the section is already sends nothing back: no reply is awaited.
                            for index in 0..<5 {
                                try await outbound.write(.text(#"{"event": "move", "section": "ads", "value": "\#((tab + index) % 12)"}"#))
                            }
                            try await outbound.write(.text(#"{"event": "explode"}"#))
                            while let message = try await messages.next() {
                                if case .text(let text) = message, text.contains("unknown event") { break }
                            }
                            try await outbound.close(.normalClosure, reason: nil)
                        }
                    }
                }
                try await group.waitForAll()
            }
            // Closing pages queue behind the other tests too: up to a minute.
            let live = fixture.server.live
            for _ in 0..<6_000 where await live.openPages > 0 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(await live.openPages == 0)
            #expect(await live.entryCount == 0)
            // A page's headline copies live as long as the page: an empty pool means every
            // page was deallocated, not only unregistered.
            let channel = fixture.server.channel
            for _ in 0..<6_000 where channel.snapshot().objectCount > 0 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(channel.snapshot().objectCount == 0, "every closed tab's page is freed")
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import TallyHTTP
import TallyStore

/// `GET /apps/{id}/live`: the WebSocket of one open tab.
///
/// The upgrade needs a session, a role in the app, and an `Origin` of this server (a page of another site
/// cannot open it with the user's cookie; see ``isSameOrigin(_:)``). The socket then owns one ``DashboardPage``,
/// made from the query of the tab's address:
/// - first it sends the page as the server has it (``DashboardPage/resync``): a tab that
///   reconnects catches up;
/// - each text message is a ``BrowserEvent`` as JSON; one the page refuses, or that does
///   not parse, gets a ``PageMessage`` with its error, and the page keeps working;
/// - every message of the page goes out in order. A tab that does not read them (more
///   than ``queueLimit`` waiting) is closed; when it reconnects it resyncs;
/// - each message is checked against the session, which must still live, the user's role in
///   the app, which must still exist (a revoked role closes the socket, a changed one is
///   what the page allows from then on), and the user's message budget
///   (``DashboardServer/messages``); the socket closes within a moment of its session
///   ending, however it ends (``SessionWatch``). A user opens sockets within the budget of
///   ``DashboardServer/sockets``. The upgrade of an app the user has no role in is refused
///   as that of an app that does not exist.
///
/// When the socket closes the page is released and freed.
struct LiveSocket: Sendable {
    /// The largest message a browser may send, in bytes.
    static let maximumMessage = 16 * 1024
    /// The most messages waiting for a slow tab.
    static let queueLimit = 256

    let server: DashboardServer

    func add(to router: Router<DashboardRequestContext>) {
        router.ws("/apps/:id/live") { request, context in
            guard let session = try await server.session(of: request) else { throw HTTPError(.unauthorized, message: "Sign in first.") }
            guard Self.isSameOrigin(request) else { throw HTTPError(.forbidden, message: "This socket is for the dashboard's own pages.") }
            if let wait = server.sockets.take(1, for: session.user.id, at: Date()) {
                throw HTTPError(.tooManyRequests, headers: [.retryAfter: String(wait)], message: "Too many pages opened; wait \(wait) s.")
            }
            _ = try await server.page(request, context: context, user: session.user.id)
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            let request = context.request
            guard let token = server.sessionToken(of: request), let session = try await server.access.session(token: token),
                let (app, role, query, notice) = try? await server.page(request, context: context.requestContext, user: session.user.id)
            else { return }
            let page = await server.makePage(app: app, role: role, query: query, user: session.user.id, filterNotice: notice)
            await page.refresh()
            let (messages, queue) = AsyncStream.makeStream(of: PageMessage.self, bufferingPolicy: .bufferingOldest(Self.queueLimit))
            await MainActor.run { [live = server.live] in
                page.outbox = { message in
                    if case .dropped = queue.yield(message) { queue.finish() }  // too slow: it resyncs on reconnect
                }
                live.register(page, user: session.user.id, session: DashboardAccess.hash(token)) { queue.finish() }
                page.send(page.resync)
            }
            await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    let encoder = JSONEncoder()
                    for await message in messages {
                        try await outbound.write(.text(String(decoding: try encoder.encode(message), as: UTF8.self)))
                    }
                    try await outbound.close(.normalClosure, reason: nil)
                }
                do {
                    for try await message in inbound.messages(maxSize: Self.maximumMessage) {
                        // Each message is checked: the user has messages left (before the
                        // store is asked anything), and the session still lives; a socket whose
                        // session ended closes.
                        if let wait = server.messages.take(1, for: session.user.id, at: Date()) {
                            await page.send(PageMessage(error: "too many messages: wait \(wait) s"))
                            continue
                        }
                        guard try await server.access.session(token: token) != nil else {
                            try? await outbound.close(.policyViolation, reason: "the session ended")
                            break
                        }
                        // The user's role is read again: a revoked one closes the socket, a
                        // changed one is what the page allows from now on.
                        guard let role = try await server.store.members.role(of: session.user.id, in: app.id) else {
                            try? await outbound.close(.policyViolation, reason: "no longer a member of this app")
                            break
                        }
                        await MainActor.run { page.role = role }
                        await Self.receive(message, on: page)
                    }
                } catch {
                    context.logger.debug("dashboard socket ended", metadata: ["error": "\(error)"])
                }
                queue.finish()
                group.cancelAll()
            }
            await MainActor.run { [live = server.live] in live.unregister(page) }
        }
    }

    /// Hands `message` to `page`, or tells the tab why it cannot.
    @MainActor
    static func receive(_ message: WebSocketMessage, on page: DashboardPage) {
        guard case .text(let text) = message else {
            page.send(PageMessage(error: "messages are JSON text"))
            return
        }
        do {
            let event = try JSONDecoder().decode(BrowserEvent.self, from: Data(text.utf8))
            try page.receive(event)
        } catch let error as BrowserEventError {
            page.send(PageMessage(error: error.description))
        } catch {
            page.send(PageMessage(error: "a message is {\"event\": NAME, \"section\": ID or null, \"value\": TEXT or null}"))
        }
    }

    /// Whether the request comes from a page of this server: a browser sends one `Origin`,
    /// `http://` or `https://` and the `Host` it asked for. Every web origin the request
    /// names must be this one, and it must name one; other schemes (a non-browser client's
    /// `ws://…`) are not a page's origin and are ignored.
    static func isSameOrigin(_ request: Request) -> Bool {
        guard let host = request.head.authority else { return false }
        let web = request.headers[values: .origin].filter { $0.hasPrefix("http://") || $0.hasPrefix("https://") }
        return !web.isEmpty && web.allSatisfy { $0 == "http://\(host)" || $0 == "https://\(host)" }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TallyEvent
import TallyHTTP
import TallyServerTesting
import TallyStore
import Testing

@testable import TallyApp
@testable import TallyDashboard

/// A dashboard over a new store: one app with events on 2026-11-20, its owner `ana`, and
/// the server that serves them, with a short live tick.
struct DashboardFixture {
    static let password = "correct horse battery"
    static let day = "2026-11-20"
    /// The cookies of a dashboard served over plain HTTP, as the fixture's is.
    static let cookies = DashboardCookies(secure: false)

    let store: EventStore
    let app: NewApp
    /// What `tally serve` runs, over the fixture's store.
    let application: TallyApplication
    var server: DashboardServer { application.dashboard }

    /// A fixture whose user may open sockets and send messages within `socketLimits`, with
    /// `Secure`, `__Host-` prefixed cookies when `secureCookies`.
    init(socketLimits: SocketLimits = .init(), secureCookies: Bool = false) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tally-web-\(UUID()).sqlite").path
        store = try EventStore(path: path)
        app = try await store.apps.create(name: "Bills <& Co>", timeZone: "UTC", acceptedEventAge: 3_650 * 86_400)
        let noon = try Date("2026-11-20T12:00:00Z", strategy: .iso8601)
        try await store.events.insert(
            ["ann", "bob"].map { user in
                Event(
                    id: UUID(), name: "bill_created", timestamp: noon, deviceTimestamp: noon, userID: user, sessionID: nil,
                    appVersion: "2.0", platform: "ios", properties: ["note": .string("lunch")])
            },
            app: app.app.id)
        let access = DashboardAccess(store: store, passwordCost: 4)
        let ana = try await access.createUser(name: "ana", password: Self.password)
        try await store.members.setRole(.owner, of: ana.id, in: app.app.id)
        // The live test client keeps one connection for the whole test and never reconnects:
        // a test slowed down (ThreadSanitizer, a busy machine) must not find it closed as idle.
        var settings = ServerSettings()
        settings.idleTimeout = 3_600
        // Reads as a loaded test machine runs them (the bounds have tests of their own).
        settings.reads = .relaxedForTests
        application = try await TallyApplication(
            store: store, settings: settings, access: access, secureCookies: secureCookies, socketLimits: socketLimits,
            tick: .milliseconds(20))
    }

    /// Stores `screens` as one session's screen views by `ann`, a second apart from noon of
    /// 2026-11-20 UTC: what the paths sheet's tests read.
    func insertSession(of screens: [String]) async throws {
        let noon = try Date("2026-11-20T12:00:00Z", strategy: .iso8601)
        try await store.events.insert(
            screens.enumerated().map { index, screen in
                Event(
                    id: UUID(), name: "screen_view", timestamp: noon.addingTimeInterval(Double(index)), userID: "ann", sessionID: "s",
                    properties: ["screen": .string(screen)])
            }, app: app.app.id)
    }

    /// Runs `test` against the server: through its router by default, which has no deadline
    /// a loaded test machine could miss (the live client gives up on a request after 20 s);
    /// over a socket on an ephemeral port with `.live`, for web sockets.
    func test<Value: Sendable>(
        _ setup: TestingSetup = .router, _ test: @escaping @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        try await application.build().test(setup) { client in try await test(client) }
    }

    /// The page path of the fixture's app on the fixture's day.
    var pagePath: String { "/apps/\(app.app.id.rawValue)?date=\(Self.day)" }
}

extension TestClientProtocol {
    /// Posts the sign-in form as a browser does: it fetches the form (and its CSRF cookie),
    /// then posts `user`, `password` and `token` (the form's own token when `nil`).
    func postSignIn(
        _ user: String = "ana", password: String = DashboardFixture.password, token: String? = nil,
        cookies: DashboardCookies = DashboardFixture.cookies
    ) async throws -> (TestResponse, csrf: String) {
        let form = try await execute(uri: "/login", method: .get)
        let csrf = try #require(form.cookie(cookies.csrf))
        let field = try token ?? #require(String(buffer: form.body).firstMatch(of: /name="csrf" value="([^"]+)"/).map { String($0.1) })
        let body = "user=\(user)&password=\(password.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")&csrf=\(field)"
        let answer = try await execute(
            uri: "/login", method: .post,
            headers: [.contentType: "application/x-www-form-urlencoded", .cookie: "\(cookies.csrf)=\(csrf)"],
            body: ByteBuffer(string: body))
        return (answer, csrf)
    }

    /// Signs `user` in through the form and returns the `Cookie` header that carries the
    /// session (and the CSRF cookie).
    func signIn(_ user: String = "ana", password: String = DashboardFixture.password) async throws -> String {
        let (answer, csrf) = try await postSignIn(user, password: password)
        #expect(answer.status == .found)
        let session = try #require(answer.cookie(DashboardFixture.cookies.session))
        return "\(DashboardFixture.cookies.csrf)=\(csrf); \(DashboardFixture.cookies.session)=\(session)"
    }
}

extension TestResponse {
    /// The value of the cookie `name` this response sets.
    func cookie(_ name: String) -> String? {
        headers[values: .setCookie].lazy.compactMap { line -> String? in
            guard line.hasPrefix(name + "=") else { return nil }
            return String(line.dropFirst(name.count + 1).prefix { $0 != ";" })
        }.first
    }

    /// The attributes of the cookie `name` this response sets, lowercased: `httponly`, `samesite=strict`…
    func cookieAttributes(_ name: String) -> Set<String> {
        guard let line = headers[values: .setCookie].first(where: { $0.hasPrefix(name + "=") }) else { return [] }
        return Set(line.split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
    }

    /// The body as text.
    var text: String { String(buffer: body) }
}

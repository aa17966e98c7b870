import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import NIOCore
import TallyHTTP
import Testing

@testable import TallyApp
@testable import TallyDashboard

/// Who may use each route of `tally serve`: the test walks every route of the application's
/// routers, fails on one it cannot classify, and asks each as a stranger, with no credential
/// and with a forged one. Every answer carries the security headers.
@Suite struct RouteAccessTests {
    /// What a route asks of its caller.
    enum Access {
        /// Anyone: the sign-in form, the assets, the health check.
        case open
        /// The app's ingest key: `X-App-Key`, or where PostHog's API (the body) or Segment's
        /// (HTTP Basic authentication, or the body) carries it.
        case ingestKey
        /// The app's read token (`Authorization: Bearer`).
        case readToken
        /// The app's write token (`Authorization: Bearer`), the read token's twin that writes.
        case writeToken
        /// A loopback client, or the metrics token: this test's client is on loopback and is
        /// let in (`TelemetryExpositionTests` checks the others are not).
        case loopbackOrMetricsToken
        /// A signed-in session (the session cookie).
        case session
        /// The CSRF token of a form the server gave (which only a signed-in page or the
        /// sign-in form has).
        case form
    }

    static let access: [String: Access] = [
        "GET /healthz": .open, "GET /openapi.json": .open, "GET /login": .open, "POST /login": .form,
        "GET /assets/dashboard.js": .open, "GET /assets/dashboard.css": .open, "GET /assets/icon.svg": .open,
        "POST /v1/events": .ingestKey,
        "POST /batch": .ingestKey, "POST /capture": .ingestKey, "POST /e": .ingestKey, "POST /i/v0/e": .ingestKey,
        "POST /v1/batch": .ingestKey, "POST /v1/track": .ingestKey, "POST /v1/identify": .ingestKey, "POST /v1/screen": .ingestKey,
        "POST /v1/page": .ingestKey,
        "GET /v1/metrics": .readToken, "GET /v1/metrics/range": .readToken, "GET /v1/metrics/breakdown": .readToken,
        "GET /v1/revenue": .readToken,
        "GET /v1/retention": .readToken, "GET /v1/funnels": .readToken, "GET /v1/paths": .readToken, "GET /v1/segments": .readToken,
        "GET /v1/users": .readToken, "GET /v1/users/{user_id}/events": .readToken,
        "PUT /v1/segments/{name}": .writeToken, "DELETE /v1/segments/{name}": .writeToken,
        "GET /v1/annotations": .readToken, "POST /v1/annotations": .writeToken, "DELETE /v1/annotations/{id}": .writeToken,
        "GET /metrics": .loopbackOrMetricsToken,
        "GET /": .session, "GET /apps/{id}": .session, "GET /apps/{id}/metrics/{file}": .session, "POST /logout": .form,
        "GET /apps/{id}/users/{user}/data": .session, "POST /apps/{id}/users/{user}/delete": .session,
    ]

    /// The WebSocket routes, all behind a session.
    static let sockets: Set<String> = ["GET /apps/{id}/live"]

    @Test func everyRouteIsClassifiedAndRefusesStrangers() async throws {
        let fixture = try await DashboardFixture()
        let routes = fixture.application.router().routes.map(\.description)
        let unclassified = routes.filter { Self.access[$0] == nil }
        #expect(unclassified.isEmpty, "routes without a class here: \(unclassified)")
        #expect(Set(routes) == Set(Self.access.keys), "classified routes the router no longer has")
        #expect(Set(fixture.server.webSocketRouter().routes.map(\.description)) == Self.sockets)

        let app = String(fixture.app.app.id.rawValue)
        try await fixture.test(.live) { client in
            for route in routes {
                let (method, template) = try #require(route.split(separator: " ", maxSplits: 1).map(String.init).pair)
                let path = template.replacingOccurrences(of: "{id}", with: app).replacingOccurrences(of: "{file}", with: "dau.csv")
                    .replacingOccurrences(of: "{name}", with: "Pro").replacingOccurrences(of: "{user_id}", with: "ana")
                    .replacingOccurrences(of: "{user}", with: "ann")
                let uri = path + "?date=\(DashboardFixture.day)&from=\(DashboardFixture.day)&to=\(DashboardFixture.day)"
                for forged in [false, true] {
                    let headers: HTTPFields =
                        forged
                        ? [
                            .authorization: "Bearer rt_forged", HTTPField.Name("X-App-Key")!: "ik_forged",
                            .cookie: "\(DashboardFixture.cookies.session)=forged",
                        ]
                        : [:]
                    let answer = try await client.execute(
                        uri: uri, method: HTTPRequest.Method(method)!, headers: headers, body: ByteBuffer(string: "{}"))
                    let said = "\(route) \(forged ? "with forged credentials" : "without credentials") answered \(answer.status)"
                    for field in SecurityHeadersMiddleware<DashboardRequestContext>().headers {
                        // The assets are the one answer a browser may keep, revalidated.
                        let expected = field.name == .cacheControl && path.hasPrefix("/assets/") ? "no-cache" : field.value
                        #expect(answer.headers[field.name] == expected, "\(said): \(field.name) missing")
                    }
                    switch Self.access[route] {
                    case .open, .loopbackOrMetricsToken: #expect(answer.status == .ok, "\(said)")
                    case .ingestKey, .readToken, .writeToken: #expect(answer.status == .unauthorized, "\(said)")
                    case .session:
                        #expect(answer.status == .unauthorized || (answer.status == .found && answer.headers[.location] == "/login"), "\(said)")
                    case .form: #expect(answer.status == .forbidden || answer.status == .badRequest, "\(said)")
                    case nil: break
                    }
                }
            }
            for route in Self.sockets {
                let path = String(route.dropFirst("GET ".count)).replacingOccurrences(of: "{id}", with: app)
                await #expect(throws: (any Error).self, "\(route) opened without a session") {
                    try await client.ws(path, configuration: .init(additionalHeaders: [.origin: "http://localhost:\(client.port ?? 0)"])) { _, _, _ in
                    }
                }
            }
        }
    }
}

extension Array {
    /// The two elements of a two-element array.
    fileprivate var pair: (Element, Element)? { count == 2 ? (self[0], self[1]) : nil }
}

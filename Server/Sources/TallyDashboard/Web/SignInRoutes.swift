import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TallyHTTP

/// `GET /login`, `POST /login` and `POST /logout`.
struct SignInRoutes: Sendable {
    let server: DashboardServer

    private var access: DashboardAccess { server.access }
    private var cookies: DashboardCookies { server.cookies }

    /// What the sign-in form posts.
    struct Form: Decodable {
        var user: String
        var password: String
        var csrf: String
    }

    func add(to router: Router<DashboardRequestContext>) {
        router.get("/login") { request, _ in
            let (csrf, isNew) = cookies.csrfToken(of: request)
            var response = Response.html(DashboardViews.login(csrf: csrf))
            if isNew { response.setCookie(cookies.csrf(csrf)) }
            return response
        }
        router.post("/login") { request, context in try await signIn(request, context: context) }
        router.post("/logout") { request, context in
            guard let form = try? await Self.decode(LogoutForm.self, request, context: context),
                cookies.isValidCSRF(form.csrf, for: request)
            else { throw HTTPError(.forbidden, message: "The form is out of date: reload the page and try again.") }
            if let token = server.sessionToken(of: request) {
                try await access.signOut(token: token)
                await server.closeSockets(ofSession: token)
            }
            var response = Response.redirect(to: "/login", type: .found)
            response.setCookie(cookies.session(nil))
            return response
        }
    }

    private struct LogoutForm: Decodable {
        var csrf: String
    }

    private func signIn(_ request: Request, context: DashboardRequestContext) async throws -> Response {
        let (csrf, _) = cookies.csrfToken(of: request)
        guard let form = try? await Self.decode(Form.self, request, context: context) else {
            return .html(DashboardViews.login(csrf: csrf, error: "Enter a user and a password."), status: .badRequest)
        }
        guard cookies.isValidCSRF(form.csrf, for: request) else {
            var response = Response.html(
                DashboardViews.login(csrf: csrf, user: form.user, error: "The form was out of date; please sign in again."),
                status: .forbidden)
            response.setCookie(cookies.csrf(csrf))
            return response
        }
        let client = ClientAddress(of: request, context: context, proxies: server.trustedProxies)
        do {
            let signedIn = try await access.signIn(
                name: form.user, password: form.password, from: client.map { "\($0.address)" } ?? "unknown",
                device: request.cookies[cookies.device]?.value)
            var response = Response.redirect(to: "/", type: .found)
            response.setCookie(cookies.session(signedIn.token))
            response.setCookie(cookies.device(signedIn.device))
            return response
        } catch SignInError.wrongNameOrPassword {
            return .html(DashboardViews.login(csrf: csrf, user: form.user, error: "Wrong user or password."), status: .unauthorized)
        } catch SignInError.tooManyAttempts(let wait) {
            var response = Response.html(
                DashboardViews.login(csrf: csrf, user: form.user, error: "Too many failed attempts: try again in \(wait) seconds."),
                status: .tooManyRequests)
            response.headers[.retryAfter] = String(wait)
            return response
        }
    }

    /// The URL-encoded form of `request`, of at most 16 KiB.
    static func decode<Value: Decodable>(_ type: Value.Type, _ request: Request, context: DashboardRequestContext) async throws -> Value {
        var request = request
        let body = try await request.collectBody(upTo: 16 * 1024)
        return try URLEncodedFormDecoder().decode(type, from: String(buffer: body))
    }
}

import Crypto
import Foundation
import Hummingbird

/// The dashboard's cookies: the session, the sign-in form's CSRF token and the device cookie
/// (see ``DeviceCookie``).
///
/// All are HttpOnly and SameSite=Strict, so no script reads them and no other site's page
/// sends them; forms also carry the CSRF token, which must match its cookie (a double-submit
/// check), so a form posted from elsewhere is refused even by a browser that ignores SameSite.
/// Served over HTTPS (``secure``), they are `Secure`, so no plain-HTTP request carries them,
/// and named with the `__Host-` prefix, so no other host of the domain can set or shadow them.
struct DashboardCookies: Sendable {
    /// Whether the cookies are `Secure` and `__Host-` prefixed.
    let secure: Bool

    /// The session cookie's name.
    var session: String { name("tally_session") }
    /// The CSRF cookie's name.
    var csrf: String { name("tally_csrf") }
    /// The device cookie's name.
    var device: String { name("tally_device") }

    private func name(_ base: String) -> String { secure ? "__Host-" + base : base }

    /// The session cookie for `token`, or one that clears it when `nil`.
    func session(_ token: String?) -> Cookie {
        cookie(session, token ?? "", maxAge: token == nil ? 0 : Int(DashboardAccess.sessionLifetime))
    }

    /// A CSRF cookie holding `token`, for the browser's session.
    func csrf(_ token: String) -> Cookie {
        cookie(csrf, token, maxAge: nil)
    }

    /// A device cookie holding `value`.
    func device(_ value: String) -> Cookie {
        cookie(device, value, maxAge: Int(DeviceCookie.lifetime))
    }

    private func cookie(_ name: String, _ value: String, maxAge: Int?) -> Cookie {
        Cookie(name: name, value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// The request's CSRF token, or a new one (which the response must set as a cookie).
    func csrfToken(of request: Request) -> (token: String, isNew: Bool) {
        if let token = request.cookies[csrf]?.value, token.count == 32 { return (token, false) }
        return (DashboardAccess.generatePassword() + DashboardAccess.generatePassword().prefix(8), true)
    }

    /// Whether the form's `token` is the request's CSRF cookie; their SHA-256 digests are
    /// compared, so the time taken tells nothing of the cookie.
    func isValidCSRF(_ token: String, for request: Request) -> Bool {
        guard let cookie = request.cookies[csrf]?.value, cookie.count == 32 else { return false }
        return Data(SHA256.hash(data: Data(token.utf8))) == Data(SHA256.hash(data: Data(cookie.utf8)))
    }
}

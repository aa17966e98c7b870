import Crypto
import Foundation
import Hummingbird

/// The dashboard's cookies: the session and the sign-in form's CSRF token.
///
/// Both are HttpOnly and SameSite=Strict, so no script reads them and no other site's
/// page sends them; forms also carry the CSRF token, which must match its cookie (a
/// double-submit check), so a form posted from elsewhere is refused even by a browser
/// that ignores SameSite.
enum Cookies {
    static let session = "tally_session"
    static let csrf = "tally_csrf"

    /// The session cookie for `token`, or one that clears it when `nil`.
    static func session(_ token: String?) -> Cookie {
        Cookie(
            name: session, value: token ?? "", maxAge: token == nil ? 0 : Int(DashboardAccess.sessionLifetime), path: "/",
            httpOnly: true, sameSite: .strict)
    }

    /// A CSRF cookie holding `token`.
    static func csrf(_ token: String) -> Cookie {
        Cookie(name: csrf, value: token, path: "/", httpOnly: true, sameSite: .strict)
    }

    /// The request's CSRF token, or a new one (which the response must set as a cookie).
    static func csrfToken(of request: Request) -> (token: String, isNew: Bool) {
        if let token = request.cookies[csrf]?.value, token.count == 32 { return (token, false) }
        return (DashboardAccess.generatePassword() + DashboardAccess.generatePassword().prefix(8), true)
    }

    /// Whether the form's `token` is the request's CSRF cookie; their SHA-256 digests are
    /// compared, so the time taken tells nothing of the cookie.
    static func isValidCSRF(_ token: String, for request: Request) -> Bool {
        guard let cookie = request.cookies[csrf]?.value, cookie.count == 32 else { return false }
        return Data(SHA256.hash(data: Data(token.utf8))) == Data(SHA256.hash(data: Data(cookie.utf8)))
    }
}

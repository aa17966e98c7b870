import Crypto
import Foundation

/// Proof that a browser signed in as a user before: OWASP's device cookie. A browser that
/// presents one for the name it signs in with is counted on its own (see
/// ``SignInThrottle/Key/device(nonce:)``), so strangers' failed guesses for the name, which
/// lock out unknown browsers, do not lock out the user's own.
///
/// The value is a random nonce and an HMAC-SHA256 of the name and the nonce, keyed by the
/// user's password hash: only the server can make one, every collector sharing the database
/// checks it, it survives restarts, and a new password revokes every device cookie of the user.
struct DeviceCookie: Hashable {
    /// How long a browser stays known.
    static let lifetime: TimeInterval = 365 * 86_400

    /// The random part, which names the browser in the throttle.
    let nonce: String
    /// The cookie's value: the nonce and its signature.
    let value: String

    /// A new device cookie for `name`, whose password hash is `passwordHash`.
    init(name: String, passwordHash: String) {
        self.init(nonce: DashboardAccess.generatePassword(), name: name, passwordHash: passwordHash)
    }

    /// The device cookie `value` if it was made for `name` with `passwordHash`, or `nil`.
    init?(verifying value: String, name: String, passwordHash: String) {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard value.utf8.count <= 128, parts.count == 2 else { return nil }
        let expected = DeviceCookie(nonce: String(parts[0]), name: name, passwordHash: passwordHash)
        // Compared as digests, so the time taken tells nothing of the expected value.
        guard SHA256.hash(data: Data(expected.value.utf8)) == SHA256.hash(data: Data(value.utf8)) else { return nil }
        self = expected
    }

    private init(nonce: String, name: String, passwordHash: String) {
        let key = SymmetricKey(data: SHA256.hash(data: Data(("tally device cookie\n" + passwordHash).utf8)))
        let signature = HMAC<SHA256>.authenticationCode(for: Data((name + "\n" + nonce).utf8), using: key)
        self.nonce = nonce
        value = nonce + "." + Data(signature).base64URL
    }
}

extension Data {
    /// The bytes in base64url, without padding.
    var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

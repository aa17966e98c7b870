import Crypto
public import Foundation

/// The `X-Tally-Signature` header of a webhook POST: `sha256=` followed by the lowercase hex
/// HMAC-SHA256 of the exact body bytes, keyed with the UTF-8 of the rule's secret.
///
/// A receiver recomputes it over the body it read and compares in constant time.
public enum WebhookSignature {
    /// The header's value for `body` signed with `secret`.
    public static func header(body: some DataProtocol, secret: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Data(secret.utf8)))
        return "sha256=" + code.map { String(format: "%02x", $0) }.joined()
    }
}

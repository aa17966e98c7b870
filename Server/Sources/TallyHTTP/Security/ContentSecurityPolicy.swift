import Foundation

/// The `Content-Security-Policy` of the server's answers: scripts, styles, connections (the
/// dashboard's WebSocket) and images from this origin only (images also as `data:` URLs), no
/// plugins, no `<base>`, forms posted here only, and no framing.
///
/// Nothing inline runs or applies — no inline script, no `style` attribute — except, in an
/// answer whose policy names a ``styleNonce``, the `<style>` elements that carry that nonce
/// (the dashboard's layout). Such a nonce is made for one answer (``makeNonce()``) and never
/// reused, so markup injected into a page cannot know it.
///
/// ```swift
/// let nonce = ContentSecurityPolicy.makeNonce()
/// var response = Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "<style nonce=\"\(nonce)\">…</style>")))
/// response.headers[.contentSecurityPolicy] = ContentSecurityPolicy(styleNonce: nonce).header
/// ```
public struct ContentSecurityPolicy: Hashable, Sendable {
    /// The nonce a `<style>` element must carry to apply; `nil` when none may.
    public let styleNonce: String?

    /// A policy that allows the `<style>` elements carrying `styleNonce` (made by
    /// ``makeNonce()`` for this answer), or none when `nil`.
    ///
    /// - Precondition: `styleNonce` is base64 (letters, digits, `+`, `/`, `-`, `_`, then at
    ///   most two `=`), as the header's syntax needs.
    public init(styleNonce: String? = nil) {
        if let styleNonce {
            let body = styleNonce.reversed().drop { $0 == "=" }
            precondition(
                !body.isEmpty && styleNonce.count - body.count <= 2
                    && body.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+/-_".contains($0)) },
                "a nonce is base64")
        }
        self.styleNonce = styleNonce
    }

    /// A new nonce for one answer: 128 bits of the system's secure random generator, in base64.
    public static func makeNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        let words = [generator.next(), generator.next()] as [UInt64]
        return words.withUnsafeBytes { Data($0) }.base64EncodedString()
    }

    /// The header's value.
    public var header: String {
        let styles = styleNonce.map { "style-src 'self' 'nonce-\($0)'; " } ?? ""
        return "default-src 'self'; \(styles)img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    }
}

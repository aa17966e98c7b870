import HTTPTypes
import Hummingbird
import NIOCore
import TallyHTTP

extension Response {
    /// An HTML page.
    static func html(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// An HTML page with `<style>` elements of its own: `html` makes it given a nonce new for
    /// this response, which those elements carry and the response's `Content-Security-Policy`
    /// names (``TallyServer/ContentSecurityPolicy``; the other security headers are
    /// `SecurityHeadersMiddleware`'s).
    static func html(styleNonce html: (_ nonce: String) async -> String) async -> Response {
        let nonce = ContentSecurityPolicy.makeNonce()
        var response = Response.html(await html(nonce))
        response.headers[.contentSecurityPolicy] = ContentSecurityPolicy(styleNonce: nonce).header
        return response
    }
}

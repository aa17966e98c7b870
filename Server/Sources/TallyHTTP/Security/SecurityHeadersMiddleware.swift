import HTTPTypes
public import Hummingbird

/// Adds the browser security headers to every response, error responses included:
///
/// - `Content-Security-Policy`: ``ContentSecurityPolicy``'s without a nonce — scripts,
///   styles, connections (the dashboard's WebSocket) and images from this origin only, no
///   inline script or style, no plugins, no `<base>`, forms posted here only, and no
///   framing. A page with `<style>` elements of its own sets its own, which names the
///   nonce they carry;
/// - `X-Frame-Options: DENY`, for browsers without `frame-ancestors`;
/// - `X-Content-Type-Options: nosniff`;
/// - `Referrer-Policy: no-referrer`;
/// - `Cache-Control: no-store`: answers hold an app's numbers, a user's events or an
///   export, which no browser or proxy cache may keep (the dashboard's assets set their own).
///
/// A header a route sets itself is kept. An error that is not an `HTTPResponseError` passes
/// through, for the server to log and answer with a bare 500.
///
/// ```swift
/// router.add(middleware: SecurityHeadersMiddleware())
/// ```
public struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The headers added, in this order; built once, not per answer.
    public let headers: HTTPFields = [
        .contentSecurityPolicy: ContentSecurityPolicy().header,
        HTTPField.Name("X-Frame-Options")!: "DENY",
        .xContentTypeOptions: "nosniff",
        HTTPField.Name("Referrer-Policy")!: "no-referrer",
        .cacheControl: "no-store",
    ]

    /// Creates the middleware.
    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        for field in headers where response.headers[field.name] == nil {
            response.headers.append(field)
        }
        return response
    }
}

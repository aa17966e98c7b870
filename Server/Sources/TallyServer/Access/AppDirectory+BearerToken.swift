import Hummingbird
import TallyHTTP
import TallyStore

extension AppDirectory {
    /// The app whose token `request` presents as `Authorization: Bearer <token>`: the one app a
    /// read or write route answers for. Reading takes the app's read token or its write token
    /// (the read token's twin that also writes); `writing` (saved segments, annotations) takes
    /// the write token only.
    ///
    /// - Throws: A 401 when the header is missing or the token names no app it may serve.
    func app(tokenOf request: Request, writing: Bool = false) async throws -> App {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else {
            throw APIError.unauthorized(writing ? "missing Authorization: Bearer <write token>" : "missing Authorization: Bearer <read token>")
        }
        let token = String(header.dropFirst("Bearer ".count))
        if let app = rememberedApp(token: token, writing: writing) { return app }
        if let app = try await app(writeToken: token) { return app }
        if !writing, let app = try await app(readToken: token) { return app }
        throw APIError.unauthorized(writing ? "unknown write token (the read token cannot write)" : "unknown read token")
    }
}

extension ReadAdmission.Reader {
    /// A read of `app` (its events from debug builds too) through its read or write token:
    /// both tokens of an app share one budget.
    static func tokens(of app: App) -> Self {
        Self(app: app.id.production.rawValue, holder: .token(app: app.id.production.rawValue))
    }
}

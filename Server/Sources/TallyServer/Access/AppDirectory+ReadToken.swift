import Hummingbird
import TallyStore

extension AppDirectory {
    /// The app whose read token `request` presents as `Authorization: Bearer <token>`: the
    /// one app every read route (and the saved segments) answers for.
    ///
    /// - Throws: A 401 when the header is missing or the token names no app.
    func app(readTokenOf request: Request) async throws -> App {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else {
            throw APIError.unauthorized("missing Authorization: Bearer <read token>")
        }
        guard let app = try await app(readToken: String(header.dropFirst("Bearer ".count))) else {
            throw APIError.unauthorized("unknown read token")
        }
        return app
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import TallyHTTP
import TallyStore

/// A request the server refuses, with the status and message the client receives as
/// `{"error": "<message>"}`.
///
/// Handlers throw it; as an `HTTPResponseError`, Hummingbird's router turns it into that
/// response, with `Retry-After` when the error has one.
struct APIError: HTTPResponseError, Equatable {
    let status: HTTPResponse.Status
    let message: String
    /// Seconds the client should wait before retrying (429 and 503).
    var retryAfter: Int?

    static func badRequest(_ message: String) -> APIError {
        APIError(status: .badRequest, message: message)
    }

    static func unauthorized(_ message: String) -> APIError {
        APIError(status: .unauthorized, message: message)
    }

    static func tooLarge(_ message: String) -> APIError {
        APIError(status: .contentTooLarge, message: message)
    }

    static func tooManyRequests(retryAfter seconds: Int) -> APIError {
        APIError(status: .tooManyRequests, message: "rate limit exceeded; retry in \(seconds) s", retryAfter: seconds)
    }

    /// The database failed (disk full, I/O error, locked): nothing of the request was
    /// stored, and the client should send it again.
    static let storageUnavailable = APIError(
        status: .serviceUnavailable, message: "storage is unavailable; nothing was stored, retry later", retryAfter: 1)

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try Response.json(["error": message], status: status)
        if let retryAfter {
            response.headers[.retryAfter] = String(retryAfter)
        }
        return response
    }
}

extension APIError {
    /// The answer to a store error: for what the store refused, the status of its kind (400
    /// for invalid input, 404 for something not there, 409 for a conflict or a limit
    /// reached); a 503 with `Retry-After` for a read the server is too busy for
    /// (``ReadAdmission/Overloaded``); 503 otherwise.
    init(storeError error: any Error) {
        switch error {
        case let refused as TallyStoreError:
            let status: HTTPResponse.Status =
                switch refused.kind {
                case .invalidInput: .badRequest
                case .notFound: .notFound
                case .conflict, .limit: .conflict
                }
            self = APIError(status: status, message: refused.description)
        case let busy as ReadAdmission.Overloaded:
            self = APIError(status: .serviceUnavailable, message: busy.description, retryAfter: busy.retryAfter)
        default: self = .storageUnavailable
        }
    }
}

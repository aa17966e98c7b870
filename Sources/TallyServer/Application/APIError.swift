import Foundation
import HTTPTypes

/// A request the server refuses, with the status and message the client receives as
/// `{"error": "<message>"}`.
struct APIError: Error, Equatable {
    let status: HTTPResponse.Status
    let message: String
    /// Seconds the client should wait before retrying (429 only).
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
}

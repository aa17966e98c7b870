import HTTPTypes
import Hummingbird

/// An ``APIError`` answered in the error shape of another vendor's API, which that vendor's
/// SDKs read: PostHog's `{"type", "code", "detail"}` or Segment's `{"code", "message"}`,
/// with the same status and `Retry-After`.
struct VendorError: HTTPResponseError {
    /// Whose API the request spoke.
    enum Vendor {
        case postHog, segment
    }

    let error: APIError
    let vendor: Vendor

    var status: HTTPResponse.Status { error.status }

    /// A machine-readable name of the failure, from its status.
    var code: String {
        switch error.status {
        case .unauthorized: "invalid_api_key"
        case .contentTooLarge: "payload_too_large"
        case .unsupportedMediaType: "unsupported_encoding"
        case .tooManyRequests: "rate_limited"
        case .serviceUnavailable: "storage_unavailable"
        default: "invalid_payload"
        }
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response: Response
        switch vendor {
        case .postHog:
            let type =
                switch error.status {
                case .unauthorized: "authentication_error"
                case .tooManyRequests: "throttled"
                case _ where error.status.code >= 500: "server_error"
                default: "validation_error"
                }
            response = try .json(["type": type, "code": code, "detail": error.message], status: status)
        case .segment:
            response = try .json(["code": code, "message": error.message], status: status)
        }
        if let retryAfter = error.retryAfter {
            response.headers[.retryAfter] = String(retryAfter)
        }
        return response
    }
}

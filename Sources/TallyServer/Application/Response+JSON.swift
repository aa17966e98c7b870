import Foundation
import Hummingbird

extension Response {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// A response whose body is `value` as JSON.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try encoder.encode(value)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    /// The response for a refused request: `{"error": "<message>"}`, plus `Retry-After`
    /// when the error has one.
    static func error(_ error: APIError) -> Response {
        var response = (try? json(["error": error.message], status: error.status))
            ?? Response(status: error.status)
        if let seconds = error.retryAfter {
            response.headers[.retryAfter] = String(seconds)
        }
        return response
    }
}

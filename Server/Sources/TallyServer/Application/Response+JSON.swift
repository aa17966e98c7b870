import Foundation
import Hummingbird

extension Response {
    /// The API's JSON: keys sorted, slashes as they are.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The API's JSON with times (`Date`) as ISO 8601 in UTC with milliseconds, as the NDJSON
    /// export writes them.
    static let timeEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        }
        return encoder
    }()

    /// A response whose body is `value` as JSON, written by `encoder`.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, encoder: JSONEncoder = encoder) throws -> Response {
        let data = try encoder.encode(value)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}

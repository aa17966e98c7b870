import Foundation
import Hummingbird
import NIOCore
@_spi(Wire) import TallyEvent
import TallyStore

/// `GET /v1/segments`, `PUT /v1/segments/{name}` and `DELETE /v1/segments/{name}`: the
/// segments saved for the app whose token is presented as `Authorization: Bearer <token>`
/// (see ``SavedSegment``), the ones the dashboard's filter bar lists. Listing takes the read
/// token; saving and deleting the write token, as the dashboard's editors alone may.
///
/// A token reaches its own app's segments only: another app's segment of the same name is
/// another segment. `{name}` is percent-encoded UTF-8; the store trims it and keeps 1 to 64
/// characters without control characters. A save's body is `{"filter": "…"}`, a filter in the
/// syntax of `filters=` (``SegmentFilter``) with at least one condition.
struct SavedSegmentController {
    let store: EventStore
    let apps: AppDirectory

    /// The largest body a save reads: a filter's 4,096 bytes, each escaped in JSON as `\u…`.
    static let maximumBodyBytes = 32_768

    /// Lists the app's segments by name: `{"segments": [{"name", "filter", "created_at"}]}`.
    func list(_ request: Request) async throws -> Response {
        try await answer {
            let app = try await apps.app(tokenOf: request)
            return try .json(["segments": try await store.segments.saved(app: app.id).map(SavedSegmentBody.init)])
        }
    }

    /// Saves the body's filter as the segment `{name}`, replacing one of that name; answers
    /// the segment as stored.
    func save(_ request: Request, context: some RequestContext) async throws -> Response {
        try await answer {
            let app = try await apps.app(tokenOf: request, writing: true)
            let name = try Self.name(in: context)
            let filter = try Self.filter(in: try await Self.body(of: request))
            return try .json(SavedSegmentBody(try await store.segments.save(app: app.id, name: name, filter: filter)))
        }
    }

    /// Deletes the segment `{name}`: 204, or 404 when the app has none of that name.
    func delete(_ request: Request, context: some RequestContext) async throws -> Response {
        try await answer {
            let app = try await apps.app(tokenOf: request, writing: true)
            let name = try Self.name(in: context)
            guard try await store.segments.delete(app: app.id, name: name) else {
                throw APIError(status: .notFound, message: "no saved segment is named \"\(name.prefix(SavedSegment.maximumNameLength))\"")
            }
            return Response(status: .noContent)
        }
    }

    /// The `{name}` of the request's path, percent-decoded.
    ///
    /// - Throws: A 400 when it is not UTF-8 once decoded, or too long to be a name.
    static func name(in context: some RequestContext) throws(APIError) -> String {
        // The route has the parameter: a request without it reaches another route.
        let raw = context.parameters.get("name") ?? ""
        return try QueryParameters.decoded(Substring(raw), name: "the segment's name")
    }

    /// The body of `request`, at most ``maximumBodyBytes``.
    static func body(of request: Request) async throws -> [UInt8] {
        do {
            return Array(buffer: try await request.body.collect(upTo: maximumBodyBytes))
        } catch is NIOTooManyBytesError {
            throw APIError.tooLarge("the body exceeds \(maximumBodyBytes) bytes")
        }
    }

    /// The filter of a save's body, `{"filter": "…"}`; other members are ignored.
    ///
    /// - Throws: A 400 for a body that is not such an object (not JSON, not UTF-8, no string
    ///   `filter`), a filter longer than 4,096 bytes, or one that does not parse (with the
    ///   ``SegmentFilter/ParseError``'s description).
    static func filter(in body: [UInt8]) throws(APIError) -> SegmentFilter {
        let value: JSONValue
        do {
            value = try JSONParser.parse(body)
        } catch {
            throw .badRequest("the body is not JSON: \(error)")
        }
        guard case .object(let object) = value, case .string(let text)? = object["filter"] else {
            throw .badRequest("expected a body {\"filter\": \"…\"} holding the segment's filter as text")
        }
        guard text.utf8.count <= SavedSegment.maximumFilterBytes else {
            throw .badRequest("filter is longer than \(SavedSegment.maximumFilterBytes) bytes")
        }
        do {
            return try SegmentFilter(parsing: text)
        } catch {
            throw .badRequest(error.description)
        }
    }

    /// What `body` answers; a store error becomes its status (``APIError/init(storeError:)``), or a 503.
    private func answer(_ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError(storeError: error)
        }
    }
}

/// A saved segment as the API writes it: `{"name", "filter", "created_at"}`.
struct SavedSegmentBody: Encodable {
    let name: String
    let filter: String
    /// When the name was first saved, as ISO 8601 in UTC with milliseconds.
    let createdAt: String

    init(_ segment: SavedSegment) {
        name = segment.name
        filter = segment.filter.description
        createdAt = segment.createdAt.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    private enum CodingKeys: String, CodingKey {
        case name, filter
        case createdAt = "created_at"
    }
}

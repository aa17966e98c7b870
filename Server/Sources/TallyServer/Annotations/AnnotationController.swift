import Foundation
import Hummingbird
import NIOCore
@_spi(Wire) import TallyEvent
import TallyStore

/// `GET /v1/annotations?from=…&to=…`, `POST /v1/annotations` and `DELETE /v1/annotations/{id}`:
/// the notes every chart of the dashboard marks (``Annotation``).
///
/// Reading takes the app's read token or its write token (`Authorization: Bearer <token>`);
/// adding and deleting take the write token (``NewApp/writeToken``). `from` and `to` are days
/// (`YYYY-MM-DD`, of the app's time zone; `to` included) or ISO 8601 instants (`to`
/// excluded). A body is `{"time": "<ISO 8601>", "text": "…"}` or `{"day": "YYYY-MM-DD",
/// "text": "…"}` (the start of that day in the app's time zone).
struct AnnotationController {
    let store: EventStore
    let apps: AppDirectory

    /// The largest body a POST reads.
    static let maximumBodyBytes = 8_192

    /// The app's annotations in the range: `{"annotations": [{"id", "time", "text", "created_at"}]}`.
    func list(_ request: Request) async throws -> Response {
        try await answer {
            let app = try await apps.app(tokenOf: request)
            let query = QueryParameters(request.uri.query)
            guard let fromText = try query.get("from"), let toText = try query.get("to") else {
                throw APIError.badRequest("expected from= and to=, days (YYYY-MM-DD) or ISO 8601 instants")
            }
            let from = try Self.instant(fromText, name: "from", timeZone: app.timeZone, dayEnd: false)
            let to = try Self.instant(toText, name: "to", timeZone: app.timeZone, dayEnd: true)
            guard from <= to else { throw APIError.badRequest("from is after to") }
            return try .json(["annotations": try await store.annotations.list(app: app.id, from: from, to: to).map(AnnotationBody.init)])
        }
    }

    /// Adds the body's annotation; answers 201 with it.
    func add(_ request: Request) async throws -> Response {
        try await answer {
            let app = try await apps.app(tokenOf: request, writing: true)
            let (time, text) = try Self.parse(try await Self.body(of: request), timeZone: app.timeZone)
            return try .json(AnnotationBody(try await store.annotations.add(app: app.id, time: time, text: text)), status: .created)
        }
    }

    /// Deletes annotation `{id}`: 204, or 404 when the app has none of that id.
    func delete(_ request: Request, context: some RequestContext) async throws -> Response {
        try await answer {
            let app = try await apps.app(tokenOf: request, writing: true)
            guard let id = context.parameters.get("id").flatMap({ Int64($0) }) else {
                throw APIError.badRequest("the annotation's id is not a number")
            }
            guard try await store.annotations.delete(app: app.id, id: id) else {
                throw APIError(status: .notFound, message: "no annotation has the id \(id)")
            }
            return Response(status: .noContent)
        }
    }

    /// `text` as an instant: an ISO 8601 date and time with a zone, or a day of `timeZone`
    /// (its start, or with `dayEnd` the start of the next day).
    static func instant(_ text: String, name: String, timeZone: String, dayEnd: Bool) throws(APIError) -> Date {
        if let day = CalendarDay(text) {
            guard let zone = TimeZone(identifier: timeZone) else { throw .badRequest("the app's time zone is unknown") }
            guard let start = day.advanced(by: dayEnd ? 1 : 0).start(in: zone) else {
                throw .badRequest("\(name) is not a day of the app's calendar")
            }
            return start
        }
        let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        guard let date = (try? Date(text, strategy: fractional)) ?? (try? Date(text, strategy: Date.ISO8601FormatStyle())),
            (0...253_402_300_799).contains(date.timeIntervalSince1970)
        else { throw .badRequest("\(name) is neither a day (YYYY-MM-DD) nor an ISO 8601 instant with its zone") }
        return date
    }

    /// The time and text of a POST's body.
    ///
    /// - Throws: A 400 for a body that is not a JSON object with a string `text` and exactly
    ///   one of a string `time` or `day`.
    static func parse(_ body: [UInt8], timeZone: String) throws(APIError) -> (Date, String) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(body)
        } catch {
            throw .badRequest("the body is not JSON: \(error)")
        }
        guard case .object(let object) = value, case .string(let text)? = object["text"] else {
            throw .badRequest("expected a body {\"time\" or \"day\", \"text\"}")
        }
        switch (object["time"], object["day"]) {
        case (.string(let time)?, nil): return (try instant(time, name: "time", timeZone: timeZone, dayEnd: false), text)
        case (nil, .string(let day)?):
            guard CalendarDay(day) != nil else { throw .badRequest("day is not a day (YYYY-MM-DD)") }
            return (try instant(day, name: "day", timeZone: timeZone, dayEnd: false), text)
        default: throw .badRequest("expected exactly one of \"time\" (ISO 8601) and \"day\" (YYYY-MM-DD), as strings")
        }
    }

    /// The body of `request`, at most ``maximumBodyBytes``.
    static func body(of request: Request) async throws -> [UInt8] {
        do {
            return Array(buffer: try await request.body.collect(upTo: maximumBodyBytes))
        } catch is NIOTooManyBytesError {
            throw APIError.tooLarge("the body exceeds \(maximumBodyBytes) bytes")
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

/// An annotation as the API writes it: `{"id", "time", "text", "created_at"}`, times in ISO
/// 8601 UTC with milliseconds.
struct AnnotationBody: Encodable {
    let id: Int64
    let time: String
    let text: String
    let createdAt: String

    init(_ annotation: Annotation) {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        id = annotation.id
        time = annotation.time.formatted(style)
        text = annotation.text
        createdAt = annotation.createdAt.formatted(style)
    }

    private enum CodingKeys: String, CodingKey {
        case id, time, text
        case createdAt = "created_at"
    }
}
